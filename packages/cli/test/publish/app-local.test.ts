// The local half of app publishing, with no server: metadata loading and bump, the bundle file
// map and its limits, the content hashes (checked against Python's json.dumps, the server's
// canonical form), `bundled:` substitution and the listing plan.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, symlink, truncate, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ExitError } from "../../src/cli/exit-error.js";
import {
  BUNDLE_MAX_FILE_BYTES,
  collectBundle,
  contentTypeOf,
} from "../../src/publish/app-bundle.js";
import { bundleHash, manifestHash } from "../../src/publish/app-content-hash.js";
import { loadAppProject, writeBumpedAppVersion } from "../../src/publish/app-project.js";
import {
  parseOverrides,
  substituteBundledRefs,
  toolIdsScript,
} from "../../src/publish/bundled-executas.js";
import { planListing } from "../../src/publish/listing-sync.js";
import { tempDir } from "../executa-init/helpers.js";

const write = async (dir: string, rel: string, content: string | Buffer) => {
  await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
  await writeFile(path.join(dir, rel), content);
};
const json = (v: unknown) => JSON.stringify(v, null, 2) + "\n";

async function rejection(p: Promise<unknown>): Promise<ExitError> {
  const e = await p.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(ExitError);
  return e as ExitError;
}

const MANIFEST = {
  schema: 2,
  required_executas: [{ tool_id: "bundled:focus" }],
  ui: {
    bundle: { format: "static-spa", entry: "index.html" },
    views: [{ name: "main", title: "Main", default: true }],
    host_api: { tools: ["required:bundled:focus"] },
  },
};

describe("loadAppProject", () => {
  it("reads metadata from app.json first and manifest.json second, key by key", async () => {
    const dir = tempDir("app-project-");
    await write(dir, "manifest.json", json({ ...MANIFEST, version: "0.3.0", changelog: "m" }));
    await write(
      dir,
      "app.json",
      json({
        slug: "focus-flow",
        name: "Focus",
        bundled_executas: { focus: { path: "executas/focus" } },
      }),
    );
    const p = await loadAppProject(dir);
    expect(p).toMatchObject({
      slug: "focus-flow",
      name: "Focus",
      version: "0.3.0",
      versionFile: path.join(dir, "manifest.json"),
      changelog: "m",
      bundled: [{ handle: "focus", path: "executas/focus" }],
      bundleEntry: "index.html",
    });
  });

  it("bumps the version in the file that holds it and keeps the rest", async () => {
    const dir = tempDir("app-project-");
    await write(dir, "manifest.json", json(MANIFEST));
    await write(dir, "app.json", json({ slug: "focus-flow", version: "1.2.3", tagline: "t" }));
    const p = await loadAppProject(dir, { bump: "minor" });
    expect([p.version, p.bumpedFrom]).toEqual(["1.3.0", "1.2.3"]);
    await writeBumpedAppVersion(p);
    expect(JSON.parse(readFileSync(path.join(dir, "app.json"), "utf8"))).toEqual({
      slug: "focus-flow",
      version: "1.3.0",
      tagline: "t",
    });
    expect(readFileSync(path.join(dir, "app.json"), "utf8").endsWith("}\n")).toBe(true);
    expect(JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8"))).toEqual(MANIFEST);
  });

  it("names the missing or invalid field and the file to fix", async () => {
    const dir = tempDir("app-project-");
    await write(dir, "manifest.json", json(MANIFEST));
    await write(dir, "app.json", json({ slug: "focus-flow" }));
    const noVersion = await rejection(loadAppProject(dir));
    expect(noVersion.exitCode).toBe(4);
    expect(noVersion.message).toContain('add "version"');
    await write(dir, "app.json", json({ slug: "Focus Flow", version: "1.0.0" }));
    expect((await rejection(loadAppProject(dir))).message).toContain('"slug" "Focus Flow" must be');
    await write(dir, "app.json", json({ slug: "focus-flow", version: "1.0" }));
    expect((await rejection(loadAppProject(dir))).message).toContain("is not X.Y.Z");
    await write(
      dir,
      "app.json",
      json({ slug: "focus-flow", version: "1.0.0", bundled_executas: { x: { path: "../other" } } }),
    );
    expect((await rejection(loadAppProject(dir))).message).toContain(
      "must stay inside the project",
    );
    expect((await rejection(loadAppProject(tempDir("app-project-")))).message).toContain(
      "not found",
    );
  });
});

describe("collectBundle", () => {
  it("maps every file, dotfiles included, in localeCompare order with types and sizes", async () => {
    const dir = tempDir("app-bundle-");
    await write(dir, "index.html", "<!doctype html>");
    await write(dir, "B.js", "b");
    await write(dir, "a/x.css", "x{}");
    await write(dir, ".well-known/y.txt", "y");
    await write(dir, "font.woff2", Buffer.from([1, 2, 3]));
    const b = await collectBundle(dir, "index.html");
    expect(b.files.map((f) => f.relativePath)).toEqual([
      ".well-known/y.txt",
      "a/x.css",
      "B.js",
      "font.woff2",
      "index.html",
    ]);
    expect(b.fileMap["a/x.css"]).toEqual({
      sha256: createHash("sha256").update("x{}").digest("hex"),
      byte_size: 3,
      content_type: "text/css",
    });
    expect(b.totalBytes).toBe(15 + 1 + 3 + 1 + 3);
    expect(contentTypeOf("x.unknown")).toBe("application/octet-stream");
    expect(contentTypeOf("m.webmanifest")).toBe("application/manifest+json");
  });

  it("refuses a missing entry, a symlink and an oversized file before any request", async () => {
    const dir = tempDir("app-bundle-");
    await write(dir, "app.js", "x");
    expect((await rejection(collectBundle(dir, "index.html"))).message).toContain(
      'ui.bundle.entry "index.html" is not a file',
    );
    await write(dir, "index.html", "x");
    await symlink("/etc/passwd", path.join(dir, "leak.txt"));
    const link = await rejection(collectBundle(dir, "index.html"));
    expect([link.exitCode, link.message]).toEqual([
      4,
      expect.stringContaining("leak.txt is a symlink"),
    ]);
    const big = tempDir("app-bundle-");
    await write(big, "index.html", "x");
    await write(big, "video.bin", "");
    await truncate(path.join(big, "video.bin"), BUNDLE_MAX_FILE_BYTES + 1);
    expect((await rejection(collectBundle(big, "index.html"))).message).toContain(
      "video.bin is 50 MiB; each file may be at most 50 MiB",
    );
    expect((await rejection(collectBundle(tempDir("app-bundle-"), undefined))).message).toContain(
      "has no files",
    );
  });

  it("counts an overlay file instead of the one on disk", async () => {
    const dir = tempDir("app-bundle-");
    await write(dir, "index.html", "x");
    await write(dir, "anna-tool-ids.js", "old");
    const b = await collectBundle(
      dir,
      "index.html",
      new Map([["anna-tool-ids.js", Buffer.from("new!")]]),
    );
    expect(b.fileMap["anna-tool-ids.js"]!.byte_size).toBe(4);
    expect(b.files.find((f) => f.relativePath === "anna-tool-ids.js")!.content!.toString()).toBe(
      "new!",
    );
  });
});

/** Python's canonical JSON, as a server written in Python computes it (ASCII paths). */
function python(script: string, input: unknown): string {
  const r = spawnSync("python3", ["-c", script], {
    input: JSON.stringify(input),
    encoding: "utf8",
  });
  expect(r.stderr).toBe("");
  return r.stdout.trim();
}
const PY_CANON =
  "import sys,json,hashlib\nv=json.load(sys.stdin)\ncanon=lambda x: json.dumps(x,sort_keys=True,separators=(',',':'))\n";

describe("content hashes", () => {
  it("match the canonical JSON a Python server computes for the same manifest and files", async () => {
    const dir = tempDir("app-hash-");
    await write(dir, "index.html", "<html>");
    await write(dir, "Z.js", "z");
    await write(dir, "a.js", "a");
    const bundle = await collectBundle(dir, "index.html");
    const manifest = { ...MANIFEST, tags: ["x", "y"], nested: { b: 1, a: [true, null, 1.5] } };
    expect(manifestHash("1.0.0", manifest)).toBe(
      python(
        PY_CANON +
          "print(hashlib.sha256(canon({'version':v['version'],'manifest':v['manifest']}).encode()).hexdigest())",
        { version: "1.0.0", manifest },
      ),
    );
    const files = bundle.files.map((f) => [f.relativePath, f.sha256]);
    expect(bundleHash("1.0.0", manifest, bundle)).toBe(
      python(
        PY_CANON +
          "h=hashlib.sha256(canon({'version':v['version'],'manifest':v['manifest']}).encode())\n" +
          "for p,s in sorted(v['files']): h.update(('\\n'+p+'\\0'+s).encode())\nprint(h.hexdigest())",
        { version: "1.0.0", manifest, files },
      ),
    );
    expect(bundle.fingerprint).toBe(
      python(PY_CANON + "print(hashlib.sha256(canon(v).encode()).hexdigest())", bundle.fileMap),
    );
    // Upload order is localeCompare (a, index, Z); the hash order is code-unit order (Z first).
    expect(bundle.files.map((f) => f.relativePath)).toEqual(["a.js", "index.html", "Z.js"]);
  });
});

describe("bundled: refs", () => {
  it("replaces bundled:, required:bundled: and optional:bundled: strings anywhere", () => {
    const out = substituteBundledRefs(
      {
        ...MANIFEST,
        optional_executas: ["bundled:extra"],
        note: "bundled:focus",
        other: "not bundled:focus",
      },
      { focus: "tool-acme-focus-abc123", extra: "tool-acme-extra-def456" },
      "manifest.json",
    );
    expect(out).toMatchObject({
      required_executas: [{ tool_id: "tool-acme-focus-abc123" }],
      optional_executas: ["tool-acme-extra-def456"],
      ui: { host_api: { tools: ["required:tool-acme-focus-abc123"] } },
      note: "tool-acme-focus-abc123",
      other: "not bundled:focus",
    });
  });

  it("refuses a ref to a handle that did not resolve, naming the fixes", () => {
    expect(() => substituteBundledRefs(MANIFEST, {}, "manifest.json")).toThrow(
      /"bundled:focus" names bundled executa "focus".*--executa-id focus=<tool_id>/,
    );
  });

  it("parses --executa-id handle=id and writes the tool-id map", () => {
    expect([...parseOverrides(["focus=tool-a-b-c", "x=y=z"], "apps push")]).toEqual([
      ["focus", "tool-a-b-c"],
      ["x", "y=z"],
    ]);
    expect(() => parseOverrides(["focus"], "apps push")).toThrow("<handle>=<tool_id>");
    expect(toolIdsScript({ focus: "tool-a" })).toContain(
      'window.__ANNA_TOOL_IDS__ = {"focus":"tool-a"};',
    );
  });
});

describe("planListing", () => {
  it("sends name (or the slug), non-empty texts, clearable URLs and screenshots in order", async () => {
    const dir = tempDir("app-listing-");
    await write(dir, "shots/one.png", "png");
    const plan = await planListing({
      dir,
      appJson: {
        tagline: "",
        description: "D",
        cover_url: null,
        homepage_url: "https://x.example",
        screenshots: ["https://s.example/1.png", "shots/one.png", 7],
        logo_url: "https://l.example/l.png",
      },
      manifest: { category: "productivity", support_url: "" },
      slug: "focus-flow",
    });
    expect(plan.patch).toEqual({
      name: "focus-flow",
      category: "productivity",
      description: "D",
      cover_url: "",
      homepage_url: "https://x.example",
      support_url: "",
      logo_url: "https://l.example/l.png",
      screenshots: ["https://s.example/1.png", "shots/one.png"],
    });
    expect(plan.screenshotFiles).toEqual([{ slot: 1, file: path.join(dir, "shots/one.png") }]);
  });

  it("refuses a field over its limit and a listing image that is not there", async () => {
    const dir = tempDir("app-listing-");
    const long = await rejection(
      planListing({ dir, appJson: { tagline: "x".repeat(161) }, manifest: {}, slug: "s-s" }),
    );
    expect([long.exitCode, long.message]).toEqual([
      4,
      "listing tagline is 161 characters; at most 160",
    ]);
    const missing = await rejection(
      planListing({ dir, appJson: { logo_file: "logo.png" }, manifest: {}, slug: "s-s" }),
    );
    expect(missing.message).toContain("listing image logo.png does not exist");
  });
});
