// /api/v1/storage/* through the whole app (app.request, no socket) on SQLite and PostgreSQL:
// the published CLI's paths, a second user's session and PAT refused on every route, and the
// presigned URLs of the filesystem blob store bound to key, Content-Type, size and expiry.
import { describe, expect, it } from "vitest";
import { mintPat } from "../../src/routes/tokens.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { detail, type Harness } from "../helpers/harness.js";
import { storageHarness } from "../helpers/storage.js";

useDialectCleanup();

const relative = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

async function patFor(
  h: Harness,
  cookie: string,
  scopes: ("aps:dev" | "executas:publish")[] = ["aps:dev"],
) {
  const me = (await (await h.req("GET", "/api/v1/me", { cookie })).json()) as { id: number };
  const { pat } = await mintPat(h.stores, {
    userId: me.id,
    scopes,
    label: null,
    now: h.clock.now(),
    ttlMs: 86_400_000,
  });
  return { authorization: `Bearer ${pat}` };
}

/** Begins an upload, PUTs `body` to its URL and finalizes it; returns the finalize result. */
async function upload(
  h: Harness,
  cookie: string,
  q: string,
  path: string,
  body: string,
  type = "text/plain",
) {
  const begin = await h.req("POST", `/api/v1/storage/files/init?${q}`, {
    cookie,
    body: { path, content_type: type, size_bytes: Buffer.byteLength(body) },
  });
  expect(begin.status).toBe(200);
  const { put_url, headers } = (await begin.json()) as {
    put_url: string;
    headers: Record<string, string>;
  };
  expect(headers).toEqual({ "Content-Type": type });
  const put = await h.req("PUT", relative(put_url), { body, headers: { "content-type": type } });
  expect(put.status).toBe(200);
  const fin = await h.req("POST", `/api/v1/storage/files/finalize?${q}`, {
    cookie,
    body: { path },
  });
  expect(fin.status).toBe(200);
  return fin.json() as Promise<{ path: string; etag: string; size_bytes: number }>;
}

describe.each(DIALECTS)("storage REST on $name", (d) => {
  it.skipIf(d.skip)("serves KV get/set/delete/list at the published CLI's paths", async () => {
    const h = await storageHarness(await d.open());
    const cookie = await h.signup("a@example.com");
    const set = await h.req("PUT", "/api/v1/storage/kv?scope=user", {
      cookie,
      body: { key: "prefs/theme", value: { dark: true }, metadata: { v: 1 }, tags: ["ui"] },
    });
    expect(set.status).toBe(200);
    const s = (await set.json()) as { etag: string; generation: number; ok: boolean };
    expect(s).toMatchObject({ ok: true, key: "prefs/theme", generation: 1, size_bytes: 13 });
    const get = await h.req("GET", "/api/v1/storage/kv?scope=user&key=prefs%2Ftheme", { cookie });
    expect(await get.json()).toEqual({
      key: "prefs/theme",
      value: { dark: true },
      exists: true,
      etag: s.etag,
      generation: 1,
    });
    const list = (await (
      await h.req("GET", "/api/v1/storage/list?scope=user&prefix=prefs%2F&limit=10", { cookie })
    ).json()) as {
      items: { key: string; metadata: unknown; tags: unknown }[];
      next_cursor: null;
    };
    expect(list.items).toMatchObject([{ key: "prefs/theme", metadata: { v: 1 }, tags: ["ui"] }]);
    expect(list.next_cursor).toBeNull();
    const stale = await h.req("PUT", "/api/v1/storage/kv?scope=user", {
      cookie,
      body: { key: "prefs/theme", value: 1, if_match: "0".repeat(32) },
    });
    expect(stale.status).toBe(412);
    expect(await detail(stale)).toMatchObject({ code: "precondition_failed", rpc_code: -32023 });
    const del = await h.req(
      "DELETE",
      `/api/v1/storage/kv?scope=user&key=prefs%2Ftheme&if_match=${s.etag}`,
      { cookie },
    );
    expect(await del.json()).toEqual({ deleted: true });
    // A miss is an answer, not an error (R42).
    const miss = await h.req("GET", "/api/v1/storage/kv?scope=user&key=prefs%2Ftheme", { cookie });
    expect(miss.status).toBe(200);
    expect(await miss.json()).toMatchObject({ value: null, exists: false, etag: null });
    const again = await h.req("DELETE", "/api/v1/storage/kv?scope=user&key=prefs%2Ftheme", {
      cookie,
    });
    expect(again.status).toBe(404);
  });

  it.skipIf(d.skip)(
    "answers bad input, missing auth, missing scope, CSRF and size limits",
    async () => {
      const h = await storageHarness(await d.open(), { kvValueMaxBytes: 64 });
      const cookie = await h.signup("a@example.com");
      expect((await h.req("GET", "/api/v1/storage/kv?scope=user&key=k")).status).toBe(401);
      const publishOnly = await patFor(h, cookie, ["executas:publish"]);
      const scoped = await h.req("GET", "/api/v1/storage/kv?scope=user&key=k", {
        headers: publishOnly,
      });
      expect(scoped.status).toBe(403);
      expect((await detail(scoped)).code).toBe("missing_scope");
      const badKey = await h.req("GET", "/api/v1/storage/kv?scope=user&key=%2Fabs", { cookie });
      expect(badKey.status).toBe(400);
      expect(await detail(badKey)).toMatchObject({ code: "invalid_path", rpc_code: -32027 });
      const badScope = await h.req("GET", "/api/v1/storage/kv?scope=planet&key=k", { cookie });
      expect(badScope.status).toBe(400);
      const toolNoId = await detail(
        await h.req("GET", "/api/v1/storage/kv?scope=tool&key=k", { cookie }),
      );
      expect(toolNoId.code).toBe("invalid_request");
      expect(toolNoId.message).toContain("tool_id");
      const big = await h.req("PUT", "/api/v1/storage/kv?scope=user", {
        cookie,
        body: { key: "k", value: "x".repeat(100) },
      });
      expect(big.status).toBe(413);
      expect(await detail(big)).toMatchObject({ code: "value_too_large", rpc_code: -32025 });
      const huge = await h.req("PUT", "/api/v1/storage/kv?scope=user", {
        cookie,
        body: { key: "k", value: "x".repeat(2 * 1024 * 1024) },
      });
      expect(huge.status).toBe(413);
      const csrf = await h.req("PUT", "/api/v1/storage/kv?scope=user", {
        cookie,
        body: { key: "k", value: 1 },
        headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      });
      expect(csrf.status).toBe(403);
      expect((await detail(csrf)).code).toBe("csrf_rejected");
    },
  );

  it.skipIf(d.skip)(
    "never lets a second user's session or PAT read or change the first user's data",
    async () => {
      const h = await storageHarness(await d.open());
      const alice = await h.signup("alice@example.com");
      const bob = await h.signup("bob@example.com");
      const bobPat = await patFor(h, bob);
      const set = await h.req("PUT", "/api/v1/storage/kv?scope=tool&tool_id=t1", {
        cookie: alice,
        body: { key: "secret", value: "A" },
      });
      const { etag } = (await set.json()) as { etag: string };
      await h.req("PUT", "/api/v1/storage/kv?scope=user", {
        cookie: alice,
        body: { key: "secret", value: "A" },
      });
      await upload(h, alice, "scope=user", "docs/a.txt", "alice's bytes");
      // An upload of Alice's left pending, to try finalizing it as Bob.
      await h.req("POST", "/api/v1/storage/files/init?scope=user", {
        cookie: alice,
        body: { path: "docs/pending.txt", content_type: "text/plain", size_bytes: 3 },
      });

      for (const [who, auth] of [
        ["bob's session", { cookie: bob }],
        ["bob's PAT", { headers: bobPat }],
      ] as const) {
        for (const q of ["scope=tool&tool_id=t1", "scope=user"]) {
          const get = await h.req("GET", `/api/v1/storage/kv?${q}&key=secret`, auth);
          expect(await get.json(), who).toMatchObject({ exists: false, value: null });
          const list = await h.req("GET", `/api/v1/storage/list?${q}`, auth);
          expect((await list.json()) as unknown, who).toEqual({ items: [], next_cursor: null });
          const del = await h.req("DELETE", `/api/v1/storage/kv?${q}&key=secret`, auth);
          expect(del.status, who).toBe(404);
          const cas = await h.req("PUT", `/api/v1/storage/kv?${q}`, {
            ...auth,
            body: { key: "secret", value: "B", if_match: etag },
          });
          expect(cas.status, who).toBe(412);
        }
        const files = await h.req("GET", "/api/v1/storage/files?scope=user", auth);
        expect(((await files.json()) as { items: unknown[] }).items, who).toEqual([]);
        const url = await h.req(
          "GET",
          "/api/v1/storage/files/url?scope=user&path=docs%2Fa.txt",
          auth,
        );
        expect(url.status, who).toBe(404);
        const fin = await h.req("POST", "/api/v1/storage/files/finalize?scope=user", {
          ...auth,
          body: { path: "docs/pending.txt" },
        });
        expect(fin.status, who).toBe(404);
        const rm = await h.req(
          "DELETE",
          "/api/v1/storage/files?scope=user&path=docs%2Fa.txt",
          auth,
        );
        expect(rm.status, who).toBe(404);
      }
      // Alice's data is untouched.
      const mine = await h.req("GET", "/api/v1/storage/kv?scope=tool&tool_id=t1&key=secret", {
        cookie: alice,
      });
      expect(await mine.json()).toMatchObject({ value: "A", etag });
      const files = (await (
        await h.req("GET", "/api/v1/storage/files?scope=user", { cookie: alice })
      ).json()) as {
        items: { path: string }[];
      };
      expect(files.items.map((f) => f.path)).toEqual(["docs/a.txt"]);
    },
  );

  it.skipIf(d.skip)(
    "binds presigned URLs to their object, Content-Type, size and lifetime",
    async () => {
      const h = await storageHarness(await d.open());
      const cookie = await h.signup("a@example.com");
      const begin = await h.req("POST", "/api/v1/storage/files/init?scope=user", {
        cookie,
        body: { path: "r.csv", content_type: "text/csv", size_bytes: 5 },
      });
      const { put_url, expires_at } = (await begin.json()) as {
        put_url: string;
        expires_at: string;
      };
      expect(Date.parse(expires_at)).toBe(h.clock.now() + 300_000);
      const put = (url: string, body: string, type = "text/csv") =>
        h.req("PUT", relative(url), { body, headers: { "content-type": type } });
      const wrongType = await put(put_url, "a,b\n1", "text/html");
      expect(wrongType.status).toBe(403);
      expect(await wrongType.text()).toContain("SignatureDoesNotMatch");
      const otherKey = put_url.replace(/blob\/[^?]+/, "blob/aps%2Fsomeone-else");
      expect((await put(otherKey, "a,b\n1")).status).toBe(403);
      const longer = put_url.replace(
        /X-Expires=(\d+)/,
        (_, n: string) => `X-Expires=${Number(n) + 3_600_000}`,
      );
      expect((await put(longer, "a,b\n1")).status).toBe(403);
      expect((await put(put_url, "a,b\n1,2")).status).toBe(413);
      // Finalizing before the bytes landed is pending_upload.
      const early = await h.req("POST", "/api/v1/storage/files/finalize?scope=user", {
        cookie,
        body: { path: "r.csv" },
      });
      expect(await detail(early)).toMatchObject({
        code: "upstream_error",
        reason: "pending_upload",
      });
      expect((await put(put_url, "a,b\n1")).status).toBe(200);
      h.clock.advance(300_001);
      expect((await put(put_url, "a,b\n1")).status).toBe(403);
      const fin = await h.req("POST", "/api/v1/storage/files/finalize?scope=user", {
        cookie,
        body: { path: "r.csv" },
      });
      expect(await fin.json()).toMatchObject({
        path: "r.csv",
        size_bytes: 5,
        content_type: "text/csv",
      });

      const url = await h.req("GET", "/api/v1/storage/files/url?scope=user&path=r.csv&ttl=60", {
        cookie,
      });
      const { get_url } = (await url.json()) as { get_url: string };
      const got = await h.req("GET", relative(get_url));
      expect(got.status).toBe(200);
      expect(got.headers.get("content-type")).toBe("text/csv");
      expect(got.headers.get("content-disposition")).toContain('filename="r.csv"');
      expect(await got.text()).toBe("a,b\n1");
      // A GET URL cannot be used to write, and lapses after its ttl.
      expect((await put(get_url, "x")).status).toBe(403);
      h.clock.advance(60_001);
      expect((await h.req("GET", relative(get_url))).status).toBe(403);
    },
  );
});
