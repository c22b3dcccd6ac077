// UI bundle uploads over real HTTP with a real filesystem blob store, on SQLite and PostgreSQL
// (real-world-cli.md §3.1, A9–A12, A17–A19): the declared file map, multipart files keyed by
// `relative_path`, server-side dedup (`skip_upload`), finalize and the CLI's fingerprint, and the
// tampered uploads that must leave nothing behind.
import { describe, expect, it } from "vitest";
import { bundleBlobKey } from "../src/apps/bundle-file-map.js";
import { type AppsHttp, appsHttp, sha256 } from "./helpers/apps-http.js";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";

useDialectCleanup();

const APPS = "/api/v1/developer/apps";
type Row = Record<string, unknown>;
const detail = (body: unknown) => (body as { detail: { code: string; message: string } }).detail;
const UI = {
  schema: 2,
  required_executas: [],
  ui: { bundle: { entry: "index.html" }, views: [{ name: "main", title: "Main", default: true }] },
};
const FILES: Record<string, string> = {
  "index.html": "<!doctype html><script src='app.js'></script>",
  "app.js": "console.log('focus');",
  "assets/style.css": "body{margin:0}",
};

function fileMap(files: Record<string, string>) {
  return Object.fromEntries(
    Object.entries(files).map(([p, text]) => [
      p,
      {
        sha256: sha256(text),
        byte_size: Buffer.byteLength(text),
        content_type: p.endsWith(".html") ? "text/html" : "text/plain",
      },
    ]),
  );
}

/** The published CLI's fingerprint, written independently: sorted keys, no whitespace. */
function cliFingerprint(map: ReturnType<typeof fileMap>): string {
  const canon = (v: unknown): string =>
    v !== null && typeof v === "object"
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canon((v as Row)[k])}`)
          .join(",")}}`
      : JSON.stringify(v);
  return sha256(canon(map));
}

function initBody(files: Record<string, string>, extra: Row = {}) {
  const map = fileMap(files);
  return {
    file_map: map,
    total_size_bytes: Object.values(map).reduce((n, e) => n + e.byte_size, 0),
    file_count: Object.keys(map).length,
    bundle_format: "static-spa",
    entry_path: "index.html",
    external_origins: [],
    ...extra,
  };
}

async function setup(d: (typeof DIALECTS)[number], limits = {}) {
  const t = await appsHttp(d, limits);
  const dev = await t.developer("acme");
  const app = (await t.call(dev.pat, "POST", APPS, { body: { slug: "focus-flow", name: "Focus" } }))
    .body as Row;
  const path = `${APPS}/${String(app.id)}`;
  const v = await t.call(dev.pat, "POST", `${path}/versions`, {
    body: { version: "1.0.0", manifest: UI },
  });
  expect(v.status).toBe(201);
  return { t, dev, path, bundle: `${path}/versions/${String((v.body as Row).id)}/bundle` };
}

async function uploadAll(t: AppsHttp, pat: string, base: string, files: Record<string, string>) {
  for (const [p, text] of Object.entries(files)) {
    const res = await t.upload(
      pat,
      `${base}/file`,
      { relative_path: p },
      { bytes: text, type: "text/plain" },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
}

describe.each(DIALECTS)("UI bundles on $name", (d) => {
  it.skipIf(d.skip)(
    "uploads a version bundle, finalizes it with the CLI's fingerprint, and dedups the next one",
    async () => {
      const { t, dev, path, bundle } = await setup(d);
      expect((await t.call(dev.pat, "GET", bundle)).status).toBe(404);
      const init = await t.call(dev.pat, "POST", `${bundle}/init`, { body: initBody(FILES) });
      expect(init.status).toBe(201);
      const files = (init.body as { files: Row[] }).files;
      expect(files.map((f) => f.relative_path).sort()).toEqual(Object.keys(FILES).sort());
      for (const f of files) {
        expect(f.proxy_upload_url).toMatch(
          /^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/developer\/apps\/\d+\/versions\/\d+\/bundle\/file\?relative_path=/,
        );
        expect(f.skip_upload).toBeUndefined();
      }
      expect(((await t.call(dev.pat, "GET", bundle)).body as Row).status).toBe("draft");
      await uploadAll(t, dev.pat, bundle, FILES);
      const fin = await t.call(dev.pat, "POST", `${bundle}/finalize`, {
        body: { skip_remote_check: false },
      });
      expect(fin.status).toBe(200);
      expect(fin.body).toMatchObject({
        status: "bundle_ready",
        file_count: 3,
        total_size_bytes: Object.values(FILES).reduce((n, s) => n + s.length, 0),
        sha256_manifest: cliFingerprint(fileMap(FILES)),
      });
      expect((await t.call(dev.pat, "GET", bundle)).body).toMatchObject({
        status: "bundle_ready",
        sha256_manifest: cliFingerprint(fileMap(FILES)),
      });
      const head = await t.blobs.head(bundleBlobKey(sha256(FILES["app.js"] as string)));
      expect(head?.sizeBytes).toBe((FILES["app.js"] as string).length);

      // A finalized bundle never changes.
      const again = await t.call(dev.pat, "POST", `${bundle}/init`, {
        body: initBody({ ...FILES, "x.js": "1" }),
      });
      expect(again.status).toBe(409);
      expect(detail(again.body).code).toBe("bundle_finalized");
      expect(detail(again.body).message).toContain("bump the version");
      const late = await t.upload(
        dev.pat,
        `${bundle}/file`,
        { relative_path: "app.js" },
        { bytes: FILES["app.js"] as string },
      );
      expect(late.status).toBe(409);

      // The same bytes under another version need no upload (0.1.47 `skip_upload`).
      const v2 = (
        await t.call(dev.pat, "POST", `${path}/versions`, {
          body: { version: "1.1.0", manifest: { ...UI, tags: ["b"] } },
        })
      ).body as Row;
      const b2 = `${path}/versions/${String(v2.id)}/bundle`;
      const init2 = await t.call(dev.pat, "POST", `${b2}/init`, {
        body: initBody({ ...FILES, "new.js": "let x = 1;" }),
      });
      const skips = Object.fromEntries(
        (init2.body as { files: Row[] }).files.map((f) => [
          f.relative_path,
          f.skip_upload === true,
        ]),
      );
      expect(skips).toEqual({
        "index.html": true,
        "app.js": true,
        "assets/style.css": true,
        "new.js": false,
      });
      const early = await t.call(dev.pat, "POST", `${b2}/finalize`, { body: {} });
      expect(early.status).toBe(409);
      expect(detail(early.body).message).toContain("new.js");
      await uploadAll(t, dev.pat, b2, { "new.js": "let x = 1;" });
      expect(
        ((await t.call(dev.pat, "POST", `${b2}/finalize`, { body: {} })).body as Row).status,
      ).toBe("bundle_ready");
    },
  );

  it.skipIf(d.skip)("refuses tampered files and keeps nothing of them", async () => {
    const { t, dev, bundle } = await setup(d);
    await t.call(dev.pat, "POST", `${bundle}/init`, { body: initBody(FILES) });
    const evil = "console.log('evil');";
    const wrongHash = await t.upload(
      dev.pat,
      `${bundle}/file`,
      { relative_path: "app.js" },
      { bytes: evil.slice(0, FILES["app.js"]?.length) },
    );
    expect(wrongHash.status).toBe(400);
    expect(detail(wrongHash.body).message).toContain("nothing was kept");
    const tooLong = await t.upload(
      dev.pat,
      `${bundle}/file`,
      { relative_path: "app.js" },
      { bytes: `${FILES["app.js"] as string}//more` },
    );
    expect(tooLong.status).toBe(413);
    const tooShort = await t.upload(
      dev.pat,
      `${bundle}/file`,
      { relative_path: "app.js" },
      { bytes: "x" },
    );
    expect(tooShort.status).toBe(400);
    const undeclared = await t.upload(
      dev.pat,
      `${bundle}/file`,
      { relative_path: "extra.js" },
      { bytes: "1" },
    );
    expect(undeclared.status).toBe(400);
    expect(detail(undeclared.body).message).toContain("not declared");
    const traversal = await t.upload(
      dev.pat,
      `${bundle}/file`,
      { relative_path: "../app.js" },
      { bytes: FILES["app.js"] as string },
    );
    expect(traversal.status).toBe(400);
    const noPath = await t.upload(
      dev.pat,
      `${bundle}/file`,
      {},
      { bytes: FILES["app.js"] as string },
    );
    expect(noPath.status).toBe(400);
    for (const text of [
      evil.slice(0, FILES["app.js"]?.length),
      `${FILES["app.js"] as string}//more`,
      "x",
      "1",
    ]) {
      expect(await t.blobs.head(bundleBlobKey(sha256(text)))).toBeUndefined();
    }
    const fin = await t.call(dev.pat, "POST", `${bundle}/finalize`, { body: {} });
    expect(fin.status).toBe(409);
    expect(detail(fin.body).code).toBe("bundle_incomplete");
    // A release needs the finalized bundle.
  });

  it.skipIf(d.skip)(
    "refuses file maps with escaping, colliding or oversized paths at init",
    async () => {
      const { t, dev, bundle } = await setup(d, {
        bundleMaxFileBytes: 100,
        bundleMaxFiles: 3,
        bundleMaxTotalBytes: 150,
      });
      const one = (p: string) => initBody({ "index.html": "x", [p]: "y" });
      for (const p of [
        "../up.js",
        "/abs.js",
        "a\\b.js",
        "nul\u0000.js",
        "C:/x.js",
        "dir/",
        "a/../../b.js",
      ]) {
        const res = await t.call(dev.pat, "POST", `${bundle}/init`, { body: one(p) });
        expect(res.status, p).toBe(400);
        expect(detail(res.body).message).toContain("relative POSIX path");
      }
      const dup = await t.call(dev.pat, "POST", `${bundle}/init`, {
        body: initBody({ "index.html": "x", "a.js": "1", "./a.js": "1" }),
      });
      expect(dup.status).toBe(400);
      expect(detail(dup.body).message).toContain("same file");
      const big = await t.call(dev.pat, "POST", `${bundle}/init`, {
        body: initBody({ "index.html": "x".repeat(101) }),
      });
      expect(big.status).toBe(413);
      const total = await t.call(dev.pat, "POST", `${bundle}/init`, {
        body: initBody({ "index.html": "x".repeat(80), "b.js": "y".repeat(80) }),
      });
      expect(total.status).toBe(413);
      const many = await t.call(dev.pat, "POST", `${bundle}/init`, {
        body: initBody({ "index.html": "1", a: "2", b: "3", c: "4" }),
      });
      expect(many.status).toBe(400);
      const none = await t.call(dev.pat, "POST", `${bundle}/init`, { body: initBody({}) });
      expect(none.status).toBe(400);
      const noEntry = await t.call(dev.pat, "POST", `${bundle}/init`, {
        body: initBody({ "main.html": "x" }),
      });
      expect(noEntry.status).toBe(400);
      expect(detail(noEntry.body).message).toContain("entry_path");
      const lie = await t.call(dev.pat, "POST", `${bundle}/init`, {
        body: initBody({ "index.html": "x" }, { total_size_bytes: 99 }),
      });
      expect(lie.status).toBe(400);
      expect((await t.call(dev.pat, "GET", bundle)).status).toBe(404);
    },
  );

  it.skipIf(d.skip)(
    "stages the working draft's bundle, reports it on push, and cut carries it to the version",
    async () => {
      const t = await appsHttp(d);
      const dev = await t.developer("acme");
      const app = (
        await t.call(dev.pat, "POST", APPS, { body: { slug: "focus-flow", name: "Focus" } })
      ).body as Row;
      const path = `${APPS}/${String(app.id)}`;
      const working = `${path}/working/bundle`;
      expect(
        (await t.call(dev.pat, "POST", `${working}/init`, { body: initBody(FILES) })).status,
      ).toBe(404);
      const push = (hash: string) =>
        t.call(dev.pat, "PUT", `${path}/working`, { body: { manifest: UI, content_hash: hash } });
      await push("a".repeat(64));
      expect(
        (await t.call(dev.pat, "POST", `${working}/init`, { body: initBody(FILES) })).status,
      ).toBe(201);
      await uploadAll(t, dev.pat, working, FILES);
      const fin = await t.call(dev.pat, "POST", `${working}/finalize`, {
        body: { skip_remote_check: false },
      });
      expect(fin.body).toMatchObject({ bundle_status: "ready", file_count: 3 });
      expect((await push("a".repeat(64))).body).toMatchObject({
        unchanged: true,
        bundle_status: "ready",
      });
      const cut = await t.call(dev.pat, "POST", `${path}/working/cut`, {
        body: { version: "1.0.0" },
      });
      expect(cut.status).toBe(201);
      const b = (cut.body as { bundle: Row }).bundle;
      expect(b).toMatchObject({ sha256_manifest: cliFingerprint(fileMap(FILES)), file_count: 3 });
      expect(typeof b.object_prefix).toBe("string");
      const vb = await t.call(
        dev.pat,
        "GET",
        `${path}/versions/${String((cut.body as Row).id)}/bundle`,
      );
      expect(vb.body).toMatchObject({
        status: "bundle_ready",
        sha256_manifest: cliFingerprint(fileMap(FILES)),
      });
      // The working bundle may be staged anew (the version's copy stays as it was).
      expect(
        (
          await t.call(dev.pat, "POST", `${working}/init`, {
            body: initBody({ ...FILES, "n.js": "2" }),
          })
        ).status,
      ).toBe(201);
      expect(
        (
          (await t.call(dev.pat, "GET", `${path}/versions/${String((cut.body as Row).id)}/bundle`))
            .body as Row
        ).file_count,
      ).toBe(3);
    },
  );
});
