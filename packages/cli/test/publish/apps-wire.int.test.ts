// What `anna-app apps *` sends, request by request, checked against real-world-cli.md §3: the
// built CLI talks to a real Nexus (SQLite) through a recording proxy, and the test reads the
// exact requests — order, query, If-Match, multipart fields, the substituted manifest, the
// content hash — and the documented error paths. The whole journey is apps-nexus.int.test.ts.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectBundle } from "../../src/publish/app-bundle.js";
import { bundleHash } from "../../src/publish/app-content-hash.js";
import { startTestNexus, type TestNexus } from "../account/nexus-server.js";
import { jsonLine, tempDir } from "../executa-init/helpers.js";
import { appsCli, developerPat, fail, ok } from "./apps-cli.js";
import { recordingProxy, type RecordingProxy } from "./recording-proxy.js";

const SLOW = { timeout: 240_000 };
let nexus: TestNexus;
let registry: RecordingProxy;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  nexus = await startTestNexus();
  registry = await recordingProxy(nexus.url);
  const pat = await developerPat(nexus, "apps-wire@example.com", "acme");
  env = { ANNA_APP_HOST: registry.url, ANNA_APP_PAT: pat };
});
afterAll(async () => {
  await registry?.close();
  await nexus?.close();
});

const cli = appsCli(() => env);
const readJson = (file: string) =>
  JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;

let apps = 0;
/** An app folder with a UI bundle and one bundled Python executa. */
async function appFolder(app: Record<string, unknown> = {}) {
  const dir = tempDir("apps-wire-");
  const slug = `focus-${++apps}`;
  const files: Record<string, string> = {
    "manifest.json": JSON.stringify({
      schema: 2,
      required_executas: [{ tool_id: "bundled:focus" }],
      permissions: ["tools.invoke"],
      ui: {
        bundle: { format: "static-spa", entry: "index.html" },
        views: [{ name: "main", title: "Main", default: true }],
        host_api: { tools: ["required:bundled:focus"] },
      },
    }),
    "app.json": JSON.stringify({
      slug,
      name: "Focus",
      version: "1.0.0",
      category: "productivity",
      tagline: "Stay on task",
      bundled_executas: { focus: { path: "executas/focus" } },
      ...app,
    }),
    "bundle/index.html": "<!doctype html><script src=app.js></script>",
    "bundle/app.js": "console.log(window.__ANNA_TOOL_IDS__);",
    "executas/focus/executa.json": JSON.stringify({
      type: "python",
      tool_id: "tool-dev-focus",
      slug: `${slug}-tool`,
      name: "Focus tool",
      version: "0.1.0",
      distribution: { type: "uv", package_name: "focus-tool" },
    }),
    "executas/focus/plugin.py": "print('hi')\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  return { dir, slug };
}

describe("anna-app apps publish", SLOW, () => {
  it("dry-runs without a write, then publishes the executa, the version and its bundle once", async () => {
    const { dir, slug } = await appFolder();
    const before = registry.seen.length;
    const dry = jsonLine(ok(await cli(["apps", "publish", "--dry-run", "--json"], dir))) as {
      dry_run: boolean;
      plan: { method: string; path: string }[];
    };
    expect(dry.dry_run).toBe(true);
    expect(dry.plan.map((q) => `${q.method} ${q.path.replace(/\?.*/, "")}`)).toEqual([
      "POST /api/v1/executas/my/drafts",
      "POST /api/v1/executas/my/drafts/{draft_id}/commit",
      "PUT /api/v1/executas/my/tools/{executa_id}",
      "POST /api/v1/executas/my/tools/{executa_id}/visibility",
      "POST /api/v1/executas/my/tools/{executa_id}/versions",
      "POST /api/v1/developer/apps",
      "POST /api/v1/developer/apps/{app_id}/versions",
      "POST /api/v1/developer/apps/{app_id}/versions/{version_id}/bundle/init",
      "POST /api/v1/developer/apps/{app_id}/versions/{version_id}/bundle/file",
      "POST /api/v1/developer/apps/{app_id}/versions/{version_id}/bundle/finalize",
      "PATCH /api/v1/developer/apps/{app_id}",
    ]);
    expect(registry.seen.slice(before).every((q) => q.method === "GET")).toBe(true);
    expect(existsSync(path.join(dir, ".anna"))).toBe(false);
    expect(existsSync(path.join(dir, "bundle/anna-tool-ids.js"))).toBe(false);

    const start = registry.seen.length;
    const r = jsonLine(ok(await cli(["apps", "publish", "--json"], dir))) as Record<
      string,
      unknown
    > & {
      executas: { handle: string; tool_id: string; source: string }[];
    };
    const toolId = r.executas[0]!.tool_id;
    expect(toolId).toMatch(/^tool-acme-focus-1-tool-[a-z0-9]{6}$/);
    expect(r).toMatchObject({
      slug,
      version: "1.0.0",
      first_publish: true,
      idempotent_hit: false,
      status: "DRAFT",
      executas: [{ handle: "focus", source: "published" }],
    });
    expect(registry.calls().slice(start)).toEqual([
      "GET /api/v1/developer/apps",
      "POST /api/v1/developer/apps",
      `POST /api/v1/developer/apps/${r.app_id}/versions`,
      `GET /api/v1/developer/apps/${r.app_id}/versions/${r.version_id}/bundle`,
      `POST /api/v1/developer/apps/${r.app_id}/versions/${r.version_id}/bundle/init`,
      ...Array(3).fill(
        `POST /api/v1/developer/apps/${r.app_id}/versions/${r.version_id}/bundle/file`,
      ),
      `POST /api/v1/developer/apps/${r.app_id}/versions/${r.version_id}/bundle/finalize`,
      `PATCH /api/v1/developer/apps/${r.app_id}`,
      `GET /api/v1/developer/apps/${r.app_id}`,
    ]);
    const seen = registry.seen.slice(start);
    expect(seen[0]!.query.get("slug")).toBe(slug);
    expect(seen[1]!.json).toEqual({
      slug,
      name: "Focus",
      category: "productivity",
      tagline: "Stay on task",
    });
    expect(seen[1]!.headers["user-agent"]).toBe("anna-app-cli");
    const create = seen[2]!;
    expect(create.json).toMatchObject({
      version: "1.0.0",
      manifest: {
        required_executas: [{ tool_id: toolId }],
        ui: { host_api: { tools: [`required:${toolId}`] } },
      },
    });
    // The hash covers the generated tool-id map, exactly as written to bundle/.
    expect(readFileSync(path.join(dir, "bundle/anna-tool-ids.js"), "utf8")).toContain(
      JSON.stringify({ focus: toolId }),
    );
    const local = await collectBundle(path.join(dir, "bundle"), "index.html");
    expect(create.query.get("content_hash")).toBe(
      bundleHash("1.0.0", (create.json as { manifest: unknown }).manifest, local),
    );
    expect(seen[4]!.json).toMatchObject({
      file_count: 3,
      bundle_format: "static-spa",
      entry_path: "index.html",
      external_origins: [],
      file_map: local.fileMap,
    });
    const uploads = seen.filter((q) => q.path.endsWith("/bundle/file"));
    expect(uploads.map((q) => q.form!.relative_path!.text).sort()).toEqual([
      "anna-tool-ids.js",
      "app.js",
      "index.html",
    ]);
    expect(uploads.find((q) => q.form!.relative_path!.text === "app.js")!.form!.file).toMatchObject(
      { name: "blob", type: "text/javascript", text: "console.log(window.__ANNA_TOOL_IDS__);" },
    );
    expect(seen.find((q) => q.method === "PATCH")!.json).toEqual({
      name: "Focus",
      category: "productivity",
      tagline: "Stay on task",
    });
    expect(readJson(path.join(dir, ".anna/app.json"))).toMatchObject({
      $schema: "anna-app-identity/v1",
      host: registry.url,
      app_id: r.app_id,
      slug,
    });
    expect(readJson(path.join(dir, ".anna/executas.lock.json"))).toEqual({
      $schema: "anna-executas-lock/v1",
      host: registry.url,
      executas: { focus: { tool_id: toolId, path: "executas/focus", source: "published" } },
    });

    // The same content again: the server's hit, and the finalized bundle is not sent again.
    const again = registry.seen.length;
    const hit = jsonLine(ok(await cli(["apps", "publish", "--json"], dir))) as Record<
      string,
      unknown
    >;
    expect(hit).toMatchObject({
      idempotent_hit: true,
      version_id: r.version_id,
      first_publish: false,
      bundle: { unchanged: true },
    });
    expect(
      registry
        .calls()
        .slice(again)
        .filter((c) => c.includes("/bundle/")),
    ).toEqual([]);
    expect(ok(await cli(["apps", "publish"], dir)).stdout).toContain(`${slug} 1.0.0 unchanged`);

    // Other content under the same version: refused, naming the fix.
    await writeFile(path.join(dir, "bundle/app.js"), "console.log(2);");
    fail(
      await cli(["apps", "publish"], dir),
      5,
      "version 1.0.0 of " + slug + " already exists with other content",
    );
    const bumped = jsonLine(
      ok(await cli(["apps", "publish", "--bump", "patch", "--json"], dir)),
    ) as Record<string, unknown>;
    expect(bumped).toMatchObject({ version: "1.0.1", idempotent_hit: false });
    expect(readJson(path.join(dir, "app.json")).version).toBe("1.0.1");

    // The top-level publish sees an app folder and does the same.
    expect(jsonLine(ok(await cli(["publish", "--json"], dir)))).toMatchObject({
      version: "1.0.1",
      idempotent_hit: true,
    });
    fail(await cli(["publish", "--publish"], dir), 2, "--publish is for executas");
  });

  it("refuses an invalid project before any request", async () => {
    const { dir } = await appFolder();
    await writeFile(
      path.join(dir, "manifest.json"),
      JSON.stringify({
        schema: 2,
        required_executas: [],
        ui: { bundle: { entry: "missing.html" } },
      }),
    );
    const before = registry.seen.length;
    const r = await cli(["apps", "publish"], dir);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("nothing was sent");
    expect(registry.seen.length).toBe(before);
  });
});

describe("anna-app apps push → cut → discard", SLOW, () => {
  it("pushes with and without If-Match, cuts once and discards the draft", async () => {
    const { dir, slug } = await appFolder();
    const pushed = jsonLine(ok(await cli(["apps", "push", "--json"], dir))) as Record<
      string,
      unknown
    >;
    expect(pushed).toMatchObject({
      slug,
      revision: 1,
      unchanged: false,
      bundle_status: "ready",
      bundle_uploaded: true,
      status: "DRAFT",
      handle: "acme",
      executas: [{ source: "working" }],
    });
    const id = pushed.app_id as number;
    expect(readJson(path.join(dir, ".anna/app.json"))).toMatchObject({
      app_id: id,
      handle: "acme",
    });
    const put = registry.seen.findLast((q) => q.method === "PUT")!;
    expect(put.json).toMatchObject({ content_hash: pushed.content_hash });
    expect(put.headers["if-match"]).toBeUndefined();

    // Unchanged: no bundle staged again. A stale If-Match: exit 4 naming the revision source.
    const start = registry.seen.length;
    expect(
      jsonLine(ok(await cli(["apps", "push", "--json", "--if-match", "1"], dir))),
    ).toMatchObject({ unchanged: true, bundle_uploaded: false });
    expect(registry.seen.slice(start).find((q) => q.method === "PUT")!.headers["if-match"]).toBe(
      "1",
    );
    await writeFile(path.join(dir, "bundle/app.js"), "console.log('v2');");
    expect(jsonLine(ok(await cli(["apps", "push", "--json"], dir)))).toMatchObject({ revision: 2 });
    fail(await cli(["apps", "push", "--if-match", "1"], dir), 4, "If-Match=1 is stale");

    // Cut: the body is {version, changelog}; the same version again is exit 9.
    const cut = jsonLine(
      ok(await cli(["apps", "cut", "1.0.0", "--changelog", "First", "--json"], dir)),
    ) as { frozen_executas: { tool_id: string }[] };
    expect(cut.frozen_executas.map((f) => f.tool_id)).toEqual([
      (pushed.executas as { tool_id: string }[])[0]!.tool_id,
    ]);
    expect(registry.seen.findLast((q) => q.path.endsWith("/working/cut"))!.json).toEqual({
      version: "1.0.0",
      changelog: "First",
    });
    fail(
      await cli(["apps", "cut", "1.0.0"], dir),
      9,
      "version 1.0.0 of " +
        slug +
        " was already cut; cut the next one (e.g. `anna-app apps cut 1.0.1`)",
    );
    const status = jsonLine(ok(await cli(["apps", "status", slug, "--json"], dir)));
    expect(status).toMatchObject({ app: { slug }, working: { revision: 2 } });

    // Discard: the dry run reads the revision and sends nothing; then A14 and A15.
    const before = registry.seen.length;
    expect(ok(await cli(["apps", "discard", "--dry-run"], dir)).stdout).toContain("(revision 2)");
    expect(registry.seen.slice(before).every((q) => q.method === "GET")).toBe(true);
    expect(jsonLine(ok(await cli(["apps", "discard", "--json"], dir)))).toMatchObject({
      revision: 2,
      discarded: true,
    });
    expect(registry.calls().at(-1)).toBe(`DELETE /api/v1/developer/apps/${id}/working`);
    expect(ok(await cli(["apps", "discard"], dir)).stdout).toContain("has no working draft");
  });
});

describe("anna-app apps destructive and listing commands", SLOW, () => {
  it("guards unpublish, archive and delete, and names an unknown slug", async () => {
    const { dir, slug } = await appFolder();
    const { app_id: id } = jsonLine(ok(await cli(["apps", "publish", "--json"], dir))) as {
      app_id: number;
    };
    fail(
      await cli(["apps", "delete", slug], dir),
      2,
      `apps delete ${slug} cannot be undone; run it again with --yes --confirm ${slug}`,
    );
    fail(
      await cli(["apps", "delete", slug, "--yes", "--confirm", "other"], dir),
      2,
      "--confirm other does not match",
    );
    fail(
      await cli(["apps", "archive", slug, "--yes", "--confirm", slug], dir, {
        ANNA_CLI_NO_DESTRUCTIVE: "1",
      }),
      7,
      "ANNA_CLI_NO_DESTRUCTIVE=1",
    );
    fail(await cli(["apps", "status", "no-such-app"], dir), 5, "no app 'no-such-app' of yours");
    fail(await cli(["apps", "unarchive", slug], dir), 2, "--yes");
    expect(
      ok(await cli(["apps", "delete", slug, "--yes", "--confirm", slug], dir)).stdout,
    ).toContain(`deleted ${slug}`);
    expect(registry.calls().at(-1)).toBe(`DELETE /api/v1/developer/apps/${id}`);
    fail(await cli(["apps", "status", slug], dir), 5, `no app '${slug}' of yours`);
  });

  it("syncs the listing, refuses one over its limits, and renames the slug everywhere", async () => {
    const { dir, slug } = await appFolder({
      homepage_url: "https://focus.example",
      support_url: null,
    });
    ok(await cli(["apps", "publish", "--json"], dir));
    const r = jsonLine(ok(await cli(["apps", "sync-meta", "--json"], dir))) as Record<
      string,
      unknown
    >;
    expect(r.listing).toEqual({
      name: "Focus",
      category: "productivity",
      tagline: "Stay on task",
      homepage_url: "https://focus.example",
      support_url: "",
    });
    await writeFile(
      path.join(dir, "app.json"),
      JSON.stringify({ ...readJson(path.join(dir, "app.json")), tagline: "x".repeat(200) }),
    );
    const before = registry.seen.length;
    fail(
      await cli(["apps", "sync-meta"], dir),
      4,
      "listing tagline is 200 characters; at most 160",
    );
    expect(registry.seen.length).toBe(before);
    // push runs the validator first, which refuses it too; a listing problem the validator
    // does not see (a missing screenshot file) only skips the sync with a warning.
    fail(await cli(["apps", "push"], dir), 4, "nothing was sent");
    await writeFile(
      path.join(dir, "app.json"),
      JSON.stringify({
        ...readJson(path.join(dir, "app.json")),
        tagline: "ok",
        screenshots: ["shots/missing.png"],
      }),
    );
    const pushed = await cli(["apps", "push", "--json"], dir);
    expect(pushed.code).toBe(0);
    expect(pushed.stderr).toBe(
      "! listing metadata sync skipped: listing image shots/missing.png does not exist in " +
        dir +
        "\n",
    );

    const renamed = jsonLine(ok(await cli(["apps", "rename-slug", `${slug}-x`, "--json"], dir)));
    expect(renamed).toMatchObject({ old_slug: slug, slug: `${slug}-x` });
    expect(readJson(path.join(dir, "app.json")).slug).toBe(`${slug}-x`);
    expect(readJson(path.join(dir, ".anna/app.json")).slug).toBe(`${slug}-x`);
    fail(await cli(["apps", "rename-slug", "Bad Slug"], dir), 2, "is not a slug");
  });
});
