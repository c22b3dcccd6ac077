import { cp, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  discoverSkillFiles,
  parseSkillFile,
  resolveBundledSkillsDir,
  SkillIndex,
  type SkillIssue,
  SkillLoadError,
} from "../src/index.js";
import { REFERENCE_SKILLS, skillMd, tempDir, writeTree } from "./helpers.js";

describe("SkillIndex.build", () => {
  it("indexes the reference skills by id, sorted (S18)", async () => {
    const index = await SkillIndex.build({ bundledDir: REFERENCE_SKILLS, os: "linux" });
    expect(index.list().map((s) => s.id)).toEqual([
      "chart-generator",
      "csv-data-tools",
      "curl",
      "jq",
      "meeting-summary",
      "pdf-tools",
      "postgres-client",
      "uv",
    ]);
    expect(index.get("jq")).toMatchObject({
      source: "bundled",
      path: join(REFERENCE_SKILLS, "jq", "SKILL.md"),
    });
  });

  it("lets user skills override bundled ones and workspace skills override both (S16, S17)", async () => {
    const root = await tempDir();
    await writeTree(root, {
      "bundled/a/SKILL.md": skillMd("a", "bundled a"),
      "bundled/b/SKILL.md": skillMd("b", "bundled b"),
      "bundled/c/SKILL.md": skillMd("c", "bundled c"),
      "user/b/SKILL.md": skillMd("b", "user b"),
      "user/c/SKILL.md": skillMd("c", "user c"),
      "ws/skills/c/SKILL.md": skillMd("c", "workspace c"),
      "ws/skills/d/SKILL.md": skillMd("d", "workspace d"),
    });
    const index = await SkillIndex.build({
      bundledDir: join(root, "bundled"),
      userDir: join(root, "user"),
      workspaceDir: join(root, "ws"),
    });
    expect(index.list().map((s) => [s.id, s.description, s.source])).toEqual([
      ["a", "bundled a", "bundled"],
      ["b", "user b", "user"],
      ["c", "workspace c", "workspace"],
      ["d", "workspace d", "workspace"],
    ]);
  });

  it("merges on skill_key, the identifier the agent sees (X8)", async () => {
    const root = await tempDir();
    await writeTree(root, {
      "bundled/charts/SKILL.md": skillMd("charts", "bundled"),
      "ws/skills/my-charts/SKILL.md": skillMd(
        "my-charts",
        "mine",
        '{"matrix":{"skill_key":"charts"}}',
      ),
    });
    const index = await SkillIndex.build({
      bundledDir: join(root, "bundled"),
      workspaceDir: join(root, "ws"),
    });
    expect(index.list().map((s) => [s.id, s.name])).toEqual([["charts", "my-charts"]]);
  });

  it("keeps the first of two same-id skills in one folder and warns", async () => {
    const root = await tempDir();
    await writeTree(root, {
      "a/SKILL.md": skillMd("same", "first"),
      "b/SKILL.md": skillMd("same", "second"),
    });
    const issues: SkillIssue[] = [];
    const index = await SkillIndex.build({ bundledDir: root, onWarning: (i) => issues.push(i) });
    expect(index.get("same")?.description).toBe("first");
    expect(issues).toEqual([
      expect.objectContaining({ code: "skill.duplicate_skill", file: join(root, "b", "SKILL.md") }),
    ]);
  });

  it("skips broken skills, reports why, and indexes the rest", async () => {
    const root = await tempDir();
    await writeTree(root, {
      "good/SKILL.md": skillMd("good", "fine"),
      "bad/SKILL.md": "no frontmatter\n",
      "evil/SKILL.md":
        "---\nname: evil\ndescription: x\nm: !!python/object/apply:os.system ['id']\n---\n",
      "warned/SKILL.md": skillMd("Warned Skill", "non-kebab"),
    });
    const issues: SkillIssue[] = [];
    const index = await SkillIndex.build({ bundledDir: root, onWarning: (i) => issues.push(i) });
    expect(index.list().map((s) => s.id)).toEqual(["Warned Skill", "good"]);
    expect(issues.map((i) => [i.severity, i.code]).sort()).toEqual([
      ["error", "skill.no_frontmatter"],
      ["error", "skill.yaml_tag"],
      ["warning", "skill.name_not_kebab"],
    ]);
  });

  it("walks nested folders but never into a skill's own subfolders (X2)", async () => {
    const root = await tempDir();
    await writeTree(root, {
      "group/inner/SKILL.md": skillMd("inner", "nested one level"),
      "top/SKILL.md": skillMd("top", "top"),
      "top/examples/SKILL.md": skillMd("example", "an example, not a skill"),
      "node_modules/pkg/SKILL.md": skillMd("dep", "inside node_modules"),
      ".hidden/SKILL.md": skillMd("hidden", "dot folder"),
    });
    expect(await discoverSkillFiles(root)).toEqual([
      join(root, "group/inner/SKILL.md"),
      join(root, "top/SKILL.md"),
    ]);
  });

  it("warns about a skill.md whose name has the wrong case", async () => {
    const root = await tempDir();
    await writeTree(root, { "x/skill.md": skillMd("x", "lowercase file") });
    const issues: SkillIssue[] = [];
    const index = await SkillIndex.build({ bundledDir: root, onWarning: (i) => issues.push(i) });
    expect(index.size).toBe(0);
    expect(issues[0]?.code).toBe("skill.skill_file_case");
  });

  it("follows a symlinked skill folder", async () => {
    const root = await tempDir();
    await writeTree(root, { "real/linked/SKILL.md": skillMd("linked", "via symlink") });
    await writeTree(root, { "skills/.keep": "" });
    await symlink(join(root, "real/linked"), join(root, "skills/linked"));
    const index = await SkillIndex.build({ bundledDir: join(root, "skills") });
    expect(index.get("linked")?.description).toBe("via symlink");
  });

  it("builds an empty index from folders that do not exist", async () => {
    const index = await SkillIndex.build({
      bundledDir: "/nonexistent/anna-skills",
      workspaceDir: "/nonexistent/ws",
    });
    expect(index.list()).toEqual([]);
  });

  it("reads the frontmatter of a skill whose frontmatter is larger than the read-ahead", async () => {
    const root = await tempDir();
    const long = "x".repeat(20_000);
    await writeTree(root, { "big/SKILL.md": `---\nname: big\ndescription: ${long}\n---\nBody\n` });
    const index = await SkillIndex.build({ bundledDir: root });
    expect(index.get("big")?.description).toHaveLength(20_000);
    expect((await index.load("big")).body).toBe("Body\n");
  });
});

describe("SkillIndex os filter and always (S15, S20)", () => {
  it("hides skills whose os list excludes the host", async () => {
    const onWindows = await SkillIndex.build({ bundledDir: REFERENCE_SKILLS, os: "windows" });
    expect(onWindows.get("pdf-tools")).toBeUndefined();
    expect(onWindows.unavailable().map((s) => s.id)).toEqual(["pdf-tools"]);
    const onLinux = await SkillIndex.build({ bundledDir: REFERENCE_SKILLS, os: "linux" });
    expect(onLinux.get("pdf-tools")).toBeDefined();
  });

  it("lists everything when the filter is off", async () => {
    const index = await SkillIndex.build({ bundledDir: REFERENCE_SKILLS, os: null });
    expect(index.unavailable()).toEqual([]);
  });

  it("lists always-loaded skills", async () => {
    const index = await SkillIndex.build({ bundledDir: REFERENCE_SKILLS, os: "linux" });
    expect(index.always().map((s) => s.id)).toEqual(["uv"]);
  });
});

describe("SkillIndex.load (lazy bodies, S18)", () => {
  it("reads the body from disk on first request, not at build time", async () => {
    const root = await tempDir();
    const file = join(root, "s/SKILL.md");
    await writeTree(root, { "s/SKILL.md": skillMd("s", "d", undefined, "old body\n") });
    const index = await SkillIndex.build({ bundledDir: root });
    await writeFile(file, skillMd("s", "d", undefined, "new body\n"));
    expect((await index.load("s")).body).toBe("new body\n");
    // Cached after the first read.
    await writeFile(file, skillMd("s", "d", undefined, "newer body\n"));
    expect((await index.load("s")).body).toBe("new body\n");
  });

  it("fails with SkillLoadError for an unknown id or a file that went away", async () => {
    const root = await tempDir();
    await writeTree(root, { "s/SKILL.md": skillMd("s", "d") });
    const index = await SkillIndex.build({ bundledDir: root });
    await expect(index.load("nope")).rejects.toBeInstanceOf(SkillLoadError);
    await rm(join(root, "s/SKILL.md"));
    await expect(index.load("s")).rejects.toMatchObject({
      name: "SkillLoadError",
      cause: expect.anything(),
    });
  });

  it("fails with the parse errors when the file was broken after indexing", async () => {
    const root = await tempDir();
    await writeTree(root, { "s/SKILL.md": skillMd("s", "d") });
    const index = await SkillIndex.build({ bundledDir: root });
    await writeFile(join(root, "s/SKILL.md"), "broken\n");
    await expect(index.load("s")).rejects.toMatchObject({
      issues: [expect.objectContaining({ code: "skill.no_frontmatter" })],
    });
  });
});

describe("SkillIndex.reload (S19)", () => {
  it("picks up added, removed and changed skills and drops cached bodies", async () => {
    const root = await tempDir();
    await writeTree(root, {
      "keep/SKILL.md": skillMd("keep", "same"),
      "edit/SKILL.md": skillMd("edit", "before"),
      "gone/SKILL.md": skillMd("gone", "bye"),
    });
    const index = await SkillIndex.build({ bundledDir: root });
    await index.load("keep");
    await writeTree(root, {
      "edit/SKILL.md": skillMd("edit", "after"),
      "new/SKILL.md": skillMd("new", "hello"),
      "keep/SKILL.md": skillMd("keep", "same", undefined, "fresh body\n"),
    });
    await rm(join(root, "gone"), { recursive: true });
    expect(await index.reload()).toEqual({ added: ["new"], removed: ["gone"], changed: ["edit"] });
    expect(index.get("edit")?.description).toBe("after");
    expect((await index.load("keep")).body).toBe("fresh body\n");
  });
});

describe("resolveBundledSkillsDir (S16)", () => {
  it("tries MATRIX_SKILLS_DIR, then <repo>/skills, then the package folder", async () => {
    const root = await tempDir();
    await writeTree(root, { "env/.keep": "", "repo/skills/.keep": "", "pkg/.keep": "" });
    const env = { MATRIX_SKILLS_DIR: join(root, "env") };
    const sources = { repoDir: join(root, "repo"), packageDir: join(root, "pkg") };
    expect(await resolveBundledSkillsDir({ env, ...sources })).toBe(join(root, "env"));
    expect(
      await resolveBundledSkillsDir({
        env: { MATRIX_SKILLS_DIR: join(root, "missing") },
        ...sources,
      }),
    ).toBe(join(root, "repo/skills"));
    expect(
      await resolveBundledSkillsDir({
        env: {},
        repoDir: join(root, "nope"),
        packageDir: join(root, "pkg"),
      }),
    ).toBe(join(root, "pkg"));
    expect(await resolveBundledSkillsDir({ env: {} })).toBeUndefined();
  });

  it("indexes a copy of the reference skills found through the environment", async () => {
    const root = await tempDir();
    await cp(REFERENCE_SKILLS, join(root, "skills"), { recursive: true });
    const dir = await resolveBundledSkillsDir({ env: { MATRIX_SKILLS_DIR: join(root, "skills") } });
    expect(dir).toBeDefined();
    const index = await SkillIndex.build({ bundledDir: dir!, os: null });
    expect(index.size).toBe(8);
  });
});

describe("SkillIndex on odd folders", () => {
  it("ignores a folder named SKILL.md and still finds the skills below it", async () => {
    const root = await tempDir();
    await writeTree(root, {
      "odd/SKILL.md/inner/SKILL.md": skillMd("inner", "under a folder named SKILL.md"),
    });
    const index = await SkillIndex.build({ bundledDir: root });
    expect(index.list().map((s) => s.id)).toEqual(["inner"]);
  });

  it("indexes a skills folder that is itself one skill", async () => {
    const root = await tempDir();
    await writeTree(root, { "SKILL.md": skillMd("solo", "the root is the skill") });
    const index = await SkillIndex.build({ bundledDir: root });
    expect(index.list().map((s) => s.id)).toEqual(["solo"]);
  });
});

describe("SkillIndex reads heads the way parseSkillFile reads files", () => {
  it.each([
    [
      "a long body with fence-like lines",
      `---\nname: a\ndescription: d\n---\n${"text\n---\n...\n".repeat(2000)}`,
    ],
    ["a fence-like line inside the frontmatter", "---\nname: b\ndescription: d\n----\n---\nBody\n"],
    [
      "a CRLF file whose frontmatter ends at the read-ahead edge",
      `---\r\nname: c\r\ndescription: ${"d".repeat(8170)}\r\n---\r\nBody\r\n`,
    ],
    ["a multibyte frontmatter", `---\nname: e\ndescription: "${"📈".repeat(3000)}"\n---\nBody\n`],
  ])("%s", async (_label, text) => {
    const root = await tempDir();
    await writeTree(root, { "s/SKILL.md": text });
    const issues: SkillIssue[] = [];
    const index = await SkillIndex.build({ bundledDir: root, onWarning: (i) => issues.push(i) });
    const direct = parseSkillFile(text, { path: join(root, "s/SKILL.md") });
    if (direct.ok) {
      expect(index.list().map((s) => [s.id, s.description])).toEqual([
        [direct.skill.id, direct.skill.description],
      ]);
      expect((await index.load(direct.skill.id)).body).toBe(direct.skill.body);
    } else {
      expect(index.list()).toEqual([]);
      expect(issues.filter((i) => i.severity === "error").map((i) => i.code)).toEqual(
        direct.errors.map((e) => e.code),
      );
    }
  });
});
