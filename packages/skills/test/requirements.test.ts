import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkRequirements, findOnPath, type SkillRecipe, selectRecipe } from "../src/index.js";
import { tempDir } from "./helpers.js";

/** A PATH folder holding fake executables (never run: the checks only look). */
async function fakePath(bins: string[], nonExecutable: string[] = []): Promise<string> {
  const dir = await tempDir();
  for (const bin of bins) {
    await writeFile(join(dir, bin), "#!/bin/sh\nexit 99\n");
    await chmod(join(dir, bin), 0o755);
  }
  for (const bin of nonExecutable) await writeFile(join(dir, bin), "data");
  return dir;
}

const none = { bins: [], any_bins: [], env: [], config: [], python_packages: [] };

describe("checkRequirements (S21)", () => {
  it("lists the bins that are not on PATH", async () => {
    const path = await fakePath(["jq"], ["psql"]);
    const r = await checkRequirements(
      { ...none, bins: ["jq", "psql", "gh"] },
      { path, env: {}, platform: "linux" },
    );
    expect(r.missing.bins).toEqual(["psql", "gh"]);
    expect(r.satisfied).toBe(false);
  });

  it("is satisfied by any one of any_bins, and lists them all when none is there", async () => {
    const path = await fakePath(["curl"]);
    const ok = await checkRequirements({ ...none, any_bins: ["uv", "curl"] }, { path, env: {} });
    expect(ok.satisfied).toBe(true);
    const missing = await checkRequirements(
      { ...none, any_bins: ["uv", "wget"] },
      { path, env: {} },
    );
    expect(missing.missing.any_bins).toEqual(["uv", "wget"]);
  });

  it("treats unset and empty environment variables as missing", async () => {
    const r = await checkRequirements(
      { ...none, env: ["A", "B", "C"] },
      { path: "", env: { A: "x", B: "" } },
    );
    expect(r.missing.env).toEqual(["B", "C"]);
  });

  it("asks the caller about config keys, and leaves them unchecked otherwise", async () => {
    const requires = { ...none, config: ["github.host", "other"] };
    const asked = await checkRequirements(requires, {
      path: "",
      env: {},
      hasConfig: (k) => k === "github.host",
    });
    expect(asked.missing.config).toEqual(["other"]);
    const unasked = await checkRequirements(requires, { path: "", env: {} });
    expect([unasked.satisfied, unasked.unchecked.config]).toEqual([true, ["github.host", "other"]]);
  });

  it("reports python packages as unchecked instead of running Python", async () => {
    const r = await checkRequirements(
      { ...none, python_packages: ["pandas"] },
      { path: "", env: {} },
    );
    expect(r).toMatchObject({ satisfied: true, unchecked: { python_packages: ["pandas"] } });
  });
});

describe("findOnPath", () => {
  it("finds an executable file and skips folders and non-executable files", async () => {
    const dir = await fakePath(["tool"], ["plain"]);
    expect(await findOnPath("tool", { path: dir, env: {}, platform: "linux" })).toBe(
      join(dir, "tool"),
    );
    expect(await findOnPath("plain", { path: dir, env: {}, platform: "linux" })).toBeUndefined();
    expect(await findOnPath("..", { path: dir, env: {}, platform: "linux" })).toBeUndefined();
  });

  it("tries PATHEXT extensions on Windows", async () => {
    const dir = await fakePath(["tool.EXE"]);
    const found = await findOnPath("tool", {
      path: dir,
      env: { PATHEXT: ".COM;.EXE" },
      platform: "win32",
    });
    expect(found).toBe(join(dir, "tool.EXE"));
  });

  it("does not treat a path as a name to look up", async () => {
    expect(await findOnPath("/bin/sh", { env: {} })).toBeUndefined();
  });
});

describe("selectRecipe (S11)", () => {
  const recipes: SkillRecipe[] = [
    { id: "brew", kind: "brew", formula: "jq", os: ["macos"] },
    { id: "apt", kind: "apt", package: "jq", os: ["linux"] },
    { id: "pip", kind: "pip", package: "jq" },
  ];

  it("picks the first recipe for the host OS whose installer is on PATH", async () => {
    const path = await fakePath(["brew", "apt-get", "pip3"]);
    expect((await selectRecipe(recipes, { os: "linux", path, env: {} }))?.id).toBe("apt");
    expect((await selectRecipe(recipes, { os: "macos", path, env: {} }))?.id).toBe("brew");
  });

  it("skips a recipe whose installer is missing, and a recipe without os matches any host", async () => {
    const path = await fakePath(["pip3"]);
    expect((await selectRecipe(recipes, { os: "linux", path, env: {} }))?.id).toBe("pip");
  });

  it("returns nothing when no installer is available", async () => {
    expect(await selectRecipe(recipes, { os: "windows", path: "", env: {} })).toBeUndefined();
  });
});
