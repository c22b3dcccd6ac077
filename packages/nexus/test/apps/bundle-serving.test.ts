// UI bundles served at /anna-apps/{slug}/{version}/{path} over real HTTP on 127.0.0.1, from a
// real blob store, on each dialect: headers, conditional GET, `latest`, who may load a version,
// and the traversal attacks sent as raw request targets (fetch and Hono would normalise them).
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import {
  registry,
  sha256Hex,
  tempBlobStore,
  uiManifest,
  type Registry,
} from "../helpers/app-bundles.js";
import { harness, type Harness } from "../helpers/harness.js";

useDialectCleanup();

const INDEX = '<!doctype html><script type="module" src="./app.js"></script>';
const APP_JS = "console.log('hi');";

interface Served {
  h: Harness;
  reg: Registry;
  url: string;
  owner: { id: number; cookie: string };
  stranger: { id: number; cookie: string };
  close(): void;
}

/** One raw request: the path is sent byte for byte as the request target. */
function raw(
  url: string,
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(
            Object.entries(res.headers).map(([k, v]) => [
              k,
              Array.isArray(v) ? v.join(", ") : (v ?? ""),
            ]),
          ),
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

async function userId(h: Harness, cookie: string): Promise<number> {
  const me = (await (await h.req("GET", "/api/v1/me", { cookie })).json()) as { id: number };
  return me.id;
}

for (const dialect of DIALECTS) {
  describe.skipIf(dialect.skip)(`serving UI bundles on ${dialect.name}`, () => {
    let s: Served;
    let versions: { published: number; draft: number };

    beforeAll(async () => {
      const handle = await dialect.open();
      const blobs = await tempBlobStore();
      const h = harness(handle, {}, { blobs });
      const reg = registry(handle.db, blobs);
      const ownerCookie = await h.signup("owner@example.com");
      const strangerCookie = await h.signup("stranger@example.com");
      const owner = { id: await userId(h, ownerCookie), cookie: ownerCookie };
      const stranger = { id: await userId(h, strangerCookie), cookie: strangerCookie };

      const live = await reg.app({ slug: "live-app", ownerId: owner.id, status: "PUBLISHED" });
      const manifest = uiManifest(
        {},
        {
          bundle: {
            format: "static-spa",
            entry: "index.html",
            external_origins: ["https://api.example.com"],
          },
          csp_overrides: {
            "img-src": ["https://img.example.com"],
            "script-src": ["'sha256-abc='"],
          },
        },
      );
      const v1 = await reg.version(live, { version: "1.0.0", manifest, published: true });
      const v2 = await reg.version(live, { version: "1.1.0", manifest, published: false });
      await reg.bundle(live, v1, {
        files: {
          "index.html": INDEX,
          "app.js": APP_JS,
          "css/site.css": "body{}",
          "css/index.html": "<p>css folder entry</p>",
          "logo.svg": { body: "<svg/>", contentType: "image/svg+xml" },
          "weird.bin": { body: "x", contentType: "text/html\r\nX-Evil: 1" },
        },
        externalOrigins: ["https://api.example.com"],
      });
      await reg.bundle(live, v2, { files: { "index.html": "<p>1.1.0</p>" } });
      await reg.setLatest(live, v1);
      const draftApp = await reg.app({
        slug: "draft-app",
        ownerId: owner.id,
        status: "PENDING_REVIEW",
      });
      const d1 = await reg.version(draftApp, { version: "0.1.0" });
      await reg.bundle(draftApp, d1, { files: { "index.html": "<p>draft</p>" } });
      const staging = await reg.app({
        slug: "staging-app",
        ownerId: owner.id,
        status: "PUBLISHED",
      });
      const s1 = await reg.version(staging, { version: "1.0.0", published: true });
      await reg.bundle(staging, s1, { files: { "index.html": "x" }, status: "staging" });
      await reg.setLatest(staging, s1);

      const server = serve({ fetch: h.app.fetch, port: 0, hostname: "127.0.0.1" });
      await new Promise<void>((resolve) => server.once("listening", () => resolve()));
      s = {
        h,
        reg,
        owner,
        stranger,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => server.close(),
      };
      versions = { published: v1, draft: d1 };
    });
    afterAll(() => s?.close());

    it("serves a published version's file with its content type, CSP, nosniff and immutable caching", async () => {
      const res = await raw(s.url, "/anna-apps/live-app/1.0.0/app.js");
      expect(res.status).toBe(200);
      expect(res.body).toBe(APP_JS);
      expect(res.headers["content-type"]).toBe("application/javascript; charset=utf-8");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["etag"]).toBe(`"${sha256Hex(Buffer.from(APP_JS))}"`);
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(res.headers["content-length"]).toBe(String(APP_JS.length));
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
      const csp = res.headers["content-security-policy"] ?? "";
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain(`script-src 'self' ${s.url} 'sha256-abc='`);
      expect(csp).toContain("connect-src 'self' https://api.example.com");
      expect(csp).toContain(
        "img-src 'self' data: blob: https://api.example.com https://img.example.com",
      );
      expect(csp).toContain("sandbox allow-scripts");
      expect(csp).not.toContain("allow-same-origin");
    });

    it("serves the entry for the bundle root and a folder's index, and redirects the bare version", async () => {
      const root = await raw(s.url, "/anna-apps/live-app/1.0.0/?wid=w&t=tok");
      expect(root.status).toBe(200);
      expect(root.body).toBe(INDEX);
      expect(root.headers["content-type"]).toBe("text/html; charset=utf-8");
      const folder = await raw(s.url, "/anna-apps/live-app/1.0.0/css/");
      expect(folder.body).toContain("css folder entry");
      const bare = await raw(s.url, "/anna-apps/live-app/1.0.0?wid=w");
      expect(bare.status).toBe(308);
      expect(bare.headers["location"]).toBe("/anna-apps/live-app/1.0.0/?wid=w");
    });

    it("answers 304 to a matching If-None-Match and HEAD without a body", async () => {
      const etag = `"${sha256Hex(Buffer.from(APP_JS))}"`;
      const again = await raw(s.url, "/anna-apps/live-app/1.0.0/app.js", {
        "if-none-match": `W/"x", ${etag}`,
      });
      expect(again.status).toBe(304);
      expect(again.body).toBe("");
      expect(again.headers["etag"]).toBe(etag);
      const other = await raw(s.url, "/anna-apps/live-app/1.0.0/app.js", {
        "if-none-match": '"nope"',
      });
      expect(other.status).toBe(200);
      const head = await raw(s.url, "/anna-apps/live-app/1.0.0/app.js", {}, "HEAD");
      expect(head.status).toBe(200);
      expect(head.body).toBe("");
      expect(head.headers["content-length"]).toBe(String(APP_JS.length));
      expect(head.headers["content-security-policy"]).toContain("default-src 'none'");
    });

    it("resolves latest to the live version and revalidates it", async () => {
      const res = await raw(s.url, "/anna-apps/live-app/latest/index.html");
      expect(res.status).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.headers["cache-control"]).toBe("public, no-cache");
      expect((await raw(s.url, "/anna-apps/staging-app/latest/index.html")).status).toBe(404);
    });

    it("refuses HTML outside a frame, and serves a recorded content type only when it is one", async () => {
      const top = await raw(s.url, "/anna-apps/live-app/1.0.0/index.html", {
        "sec-fetch-dest": "document",
      });
      expect(top.status).toBe(403);
      expect(JSON.parse(top.body)).toMatchObject({ detail: { code: "must_be_iframed" } });
      const framed = await raw(s.url, "/anna-apps/live-app/1.0.0/index.html", {
        "sec-fetch-dest": "iframe",
      });
      expect(framed.status).toBe(200);
      const weird = await raw(s.url, "/anna-apps/live-app/1.0.0/weird.bin");
      expect(weird.headers["content-type"]).toBe("application/octet-stream");
      expect(weird.headers["x-evil"]).toBeUndefined();
    });

    it("answers 404 for unknown files, versions, apps and bundles not yet finalized", async () => {
      for (const path of [
        "/anna-apps/live-app/1.0.0/missing.js",
        "/anna-apps/live-app/9.9.9/index.html",
        "/anna-apps/no-such-app/1.0.0/index.html",
        "/anna-apps/staging-app/1.0.0/index.html",
        "/anna-apps/Live-App/1.0.0/index.html",
        "/anna-apps/live-app/v1/index.html",
      ]) {
        const res = await raw(s.url, path);
        expect(res.status, path).toBe(404);
        expect(JSON.parse(res.body), path).toMatchObject({ detail: { code: "not_found" } });
      }
    });

    it("serves an unreleased version only to its owner, an admin and a user who installed it", async () => {
      const path = "/anna-apps/draft-app/0.1.0/index.html";
      expect((await raw(s.url, path)).status).toBe(404);
      expect((await raw(s.url, path, { cookie: s.stranger.cookie })).status).toBe(404);
      const owner = await raw(s.url, path, { cookie: s.owner.cookie });
      expect(owner.status).toBe(200);
      expect(owner.headers["cache-control"]).toBe("private, no-cache");
      // 1.1.0 of the published app is not released yet: private too.
      expect((await raw(s.url, "/anna-apps/live-app/1.1.0/index.html")).status).toBe(404);
      expect(
        (await raw(s.url, "/anna-apps/live-app/1.1.0/index.html", { cookie: s.owner.cookie }))
          .status,
      ).toBe(200);

      const draftApp = (
        await s.reg.db
          .selectFrom("apps")
          .select("id")
          .where("slug", "=", "draft-app")
          .executeTakeFirstOrThrow()
      ).id;
      await s.reg.install(s.stranger.id, draftApp, "0.1.0");
      expect((await raw(s.url, path, { cookie: s.stranger.cookie })).status).toBe(200);

      const adminCookie = await s.h.signup(`admin-${dialect.name}@example.com`);
      const adminId = await userId(s.h, adminCookie);
      await s.reg.db.updateTable("users").set({ is_admin: 1 }).where("id", "=", adminId).execute();
      expect((await raw(s.url, path, { cookie: adminCookie })).status).toBe(200);
      expect(versions.draft).toBeGreaterThan(0);
    });

    it("refuses traversal, encoded separators, backslashes, NUL and double encoding", async () => {
      const attacks = [
        "/anna-apps/live-app/1.0.0/..%2f..%2fdraft-app%2f0.1.0%2findex.html",
        "/anna-apps/live-app/1.0.0/%2e%2e/%2e%2e/draft-app/0.1.0/index.html",
        "/anna-apps/live-app/1.0.0/%2E%2E%2Fapp.js",
        "/anna-apps/live-app/1.0.0/..%5capp.js",
        "/anna-apps/live-app/1.0.0/css%5csite.css",
        "/anna-apps/live-app/1.0.0/app.js%00.png",
        "/anna-apps/live-app/1.0.0/%252e%252e/app.js",
        "/anna-apps/live-app/1.0.0/%2fetc%2fpasswd",
        "/anna-apps/live-app/1.0.0/css//site.css",
        "/anna-apps/live-app/1.0.0/index.html%3f..%2f..%2fx",
        "/anna-apps/live-app/1.0.0/%E0%A4%A",
      ];
      for (const path of attacks) {
        const res = await raw(s.url, path);
        expect(res.status, path).toBe(400);
        expect(JSON.parse(res.body), path).toMatchObject({ detail: { code: "invalid_path" } });
      }
      // `..` in the clear: the path never reaches another app, whatever the adapter makes of it.
      const dots = await raw(s.url, "/anna-apps/live-app/1.0.0/../../draft-app/0.1.0/index.html");
      expect([400, 404]).toContain(dots.status);
      expect(dots.body).not.toContain("draft");
    });

    it("has no directory listing: a folder without an index is 404", async () => {
      const res = await raw(s.url, "/anna-apps/live-app/1.0.0/js/");
      expect(res.status).toBe(404);
      expect(res.body).not.toContain("app.js");
      expect(versions.published).toBeGreaterThan(0);
    });
  });
}
