import { createHash } from "node:crypto";
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { describe, expect, it, onTestFinished } from "vitest";
import { LoopbackBlobServer } from "../../../src/services/offline/blob-server.js";
import { createMemoryFilesService } from "../../../src/services/offline/files-memory.js";
import type {
  MemoryFilesOptions,
  MemoryFilesUploadBeginResult,
} from "../../../src/services/offline/files-memory.js";
import { createMemoryStorageService } from "../../../src/services/offline/storage-memory.js";
import { T0_MS, expectRpcError, manualClock, storageCtx } from "./helpers.js";

const E = STORAGE_ERRORS;
const MiB = 1024 * 1024;

async function setup(options: Partial<MemoryFilesOptions> = {}) {
  const clock = manualClock();
  const blobServer = new LoopbackBlobServer({ clock: clock.now });
  onTestFinished(() => blobServer.close());
  await blobServer.start();
  const files = createMemoryFilesService({ blobServer, clock: clock.now, ...options });
  return { files, blobServer, clock, ctx: storageCtx() };
}

type Files = Awaited<ReturnType<typeof setup>>["files"];

async function begin(
  files: Files,
  path: string,
  body: string,
  ctx = storageCtx(),
  extra: Record<string, unknown> = {},
): Promise<MemoryFilesUploadBeginResult> {
  return (await files.uploadBegin(
    {
      path,
      scope: "tool",
      size_bytes: Buffer.byteLength(body),
      content_type: "text/plain",
      ...extra,
    },
    ctx,
  )) as MemoryFilesUploadBeginResult;
}

async function put(url: string, body: string, contentType = "text/plain"): Promise<Response> {
  return fetch(url, { method: "PUT", headers: { "Content-Type": contentType }, body });
}

/** begin → PUT → complete. */
async function store(files: Files, path: string, body: string, ctx = storageCtx()) {
  const started = await begin(files, path, body, ctx);
  const res = await put(started.put_url, body);
  expect(res.status).toBe(200);
  return files.uploadComplete(
    { path, scope: "tool", etag: res.headers.get("etag") ?? undefined },
    ctx,
  );
}

describe("createMemoryFilesService: the upload flow over real HTTP", () => {
  it("begin → PUT → complete → download_url → GET serves the bytes", async () => {
    const { files, ctx } = await setup();
    const body = "hello, files";
    const started = await begin(files, "docs/hello.txt", body, ctx);
    expect(started).toEqual({
      upload_id: expect.stringMatching(/^upl_[0-9a-f]{24}$/) as unknown,
      put_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/blob\//) as unknown,
      presigned_url: started.put_url,
      method: "PUT",
      headers: { "Content-Type": "text/plain" },
      expires_at: new Date(T0_MS + 300_000).toISOString(),
      expires_in: 300,
    });
    const res = await fetch(started.put_url, {
      method: "PUT",
      headers: started.headers,
      body,
    });
    expect(res.status).toBe(200);
    const putEtag = res.headers.get("etag");
    expect(putEtag).toBe(`"${createHash("md5").update(body).digest("hex")}"`);

    const done = await files.uploadComplete(
      { path: "docs/hello.txt", scope: "tool", etag: putEtag, size_bytes: 999 },
      ctx,
    );
    expect(done).toEqual({
      path: "docs/hello.txt",
      etag: createHash("sha256").update(body).digest("hex").slice(0, 32),
      size_bytes: Buffer.byteLength(body),
      content_type: "text/plain",
      updated_at: new Date(T0_MS).toISOString(),
    });

    const link = await files.downloadUrl({ path: "docs/hello.txt", scope: "tool" }, ctx);
    expect(link.url).toBe(link.get_url);
    expect(link.expires_at).toBe(new Date(T0_MS + 300_000).toISOString());
    const got = await fetch(link.get_url);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("text/plain");
    expect(got.headers.get("content-disposition")).toBe(
      `attachment; filename="hello.txt"; filename*=UTF-8''hello.txt`,
    );
    expect(await got.text()).toBe(body);

    expect(await files.list({ scope: "tool" }, ctx)).toEqual({
      items: [
        {
          path: "docs/hello.txt",
          size_bytes: Buffer.byteLength(body),
          content_type: "text/plain",
          updated_at: new Date(T0_MS).toISOString(),
          etag: done.etag,
        },
      ],
      next_cursor: null,
    });
  });

  it("a PUT with another Content-Type is refused 403 and the upload stays pending (-32029)", async () => {
    const { files, ctx } = await setup();
    const started = await begin(files, "a.png", "png!", ctx, { content_type: "image/png" });
    const res = await put(started.put_url, "png!", "application/octet-stream");
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("SignatureDoesNotMatch");
    await expectRpcError(
      files.uploadComplete({ path: "a.png", scope: "tool" }, ctx),
      -32029,
      E.UPSTREAM_ERROR.errorCode,
      /^pending_upload/,
    );
  });

  it("a PUT over the declared size_bytes gets 413", async () => {
    const { files, ctx } = await setup();
    const started = await begin(files, "a.txt", "12345", ctx);
    const res = await put(started.put_url, "123456");
    expect(res.status).toBe(413);
  });

  it("an expired put_url gets 403 on the injected clock", async () => {
    const { files, ctx, clock } = await setup();
    const started = await begin(files, "a.txt", "abc", ctx);
    clock.advance(300_001);
    expect((await put(started.put_url, "abc")).status).toBe(403);
  });

  it("serves images inline and keeps files private to their namespace", async () => {
    const { files, ctx } = await setup();
    const started = await begin(files, "pics/cat.png", "meow", ctx, { content_type: "image/png" });
    expect((await put(started.put_url, "meow", "image/png")).status).toBe(200);
    await files.uploadComplete({ path: "pics/cat.png", scope: "tool" }, ctx);
    const link = await files.downloadUrl({ path: "pics/cat.png", scope: "tool" }, ctx);
    expect((await fetch(link.url)).headers.get("content-disposition")).toMatch(/^inline;/);
    // Another tool, another scope, another user: not there.
    for (const [scope, other] of [
      ["tool", storageCtx({ toolId: "tool-b" })],
      ["user", ctx],
      ["tool", storageCtx({ userId: "user-2" })],
    ] as const) {
      await expectRpcError(
        files.downloadUrl({ path: "pics/cat.png", scope }, other),
        -32022,
        E.NOT_FOUND.errorCode,
      );
    }
  });
});

describe("createMemoryFilesService: upload_begin validation", () => {
  it("rejects bad paths with -32027 and collapses '//'", async () => {
    const { files, ctx } = await setup();
    for (const path of [
      "/abs",
      "a/",
      "a/../b",
      "./a",
      "x\u0000y",
      "back\\slash",
      "a/ b",
      "zw\u200d",
      "",
      "p".repeat(1025),
    ]) {
      await expectRpcError(
        files.uploadBegin({ path, scope: "tool", size_bytes: 1, content_type: "text/plain" }, ctx),
        -32027,
        E.INVALID_PATH.errorCode,
      );
    }
    await store(files, "a//b///c.txt", "x", ctx);
    expect((await files.list({ scope: "tool" }, ctx)).items.map((i) => i.path)).toEqual([
      "a/b/c.txt",
    ]);
  });

  it("requires content_type (-32028); empty or over 120 characters is -32027", async () => {
    const { files, ctx } = await setup();
    await expectRpcError(
      files.uploadBegin({ path: "a", scope: "tool", size_bytes: 1 }, ctx),
      -32028,
      E.INVALID_REQUEST.errorCode,
      /content_type/,
    );
    for (const contentType of ["", " ", `text/${"x".repeat(116)}`]) {
      await expectRpcError(
        files.uploadBegin(
          { path: "a", scope: "tool", size_bytes: 1, content_type: contentType },
          ctx,
        ),
        -32027,
        E.INVALID_PATH.errorCode,
      );
    }
  });

  it("accepts 0..256 MiB: over is -32025, negative or fractional is -32028, the grant cap is -32024", async () => {
    const { files, ctx } = await setup();
    const call = (size: number, c = ctx) =>
      files.uploadBegin({ path: "a", scope: "tool", size_bytes: size, content_type: "x/y" }, c);
    await expectRpcError(call(256 * MiB + 1), -32025, E.VALUE_TOO_LARGE.errorCode);
    await expectRpcError(call(-1), -32028, E.INVALID_REQUEST.errorCode);
    await expectRpcError(call(1.5), -32028, E.INVALID_REQUEST.errorCode);
    await expect(call(0)).resolves.toBeDefined();
    await expect(call(256 * MiB)).resolves.toBeDefined();
    await expectRpcError(
      call(11, storageCtx({ grant: { objectMaxBytes: 10 } })),
      -32024,
      E.QUOTA_EXCEEDED.errorCode,
      /objectMaxBytes 10/,
    );
  });

  it("rejects reserved ('__') and non-string metadata with -32028", async () => {
    const { files, ctx } = await setup();
    for (const metadata of [{ __pending: "true" }, { n: 1 }, ["x"]]) {
      await expectRpcError(
        files.uploadBegin(
          { path: "a", scope: "tool", size_bytes: 1, content_type: "x/y", metadata } as never,
          ctx,
        ),
        -32028,
        E.INVALID_REQUEST.errorCode,
      );
    }
  });

  it("zero-byte objects round-trip", async () => {
    const { files, ctx } = await setup();
    const done = await store(files, "empty.txt", "", ctx);
    expect(done.size_bytes).toBe(0);
    const link = await files.downloadUrl({ path: "empty.txt", scope: "tool" }, ctx);
    expect(await (await fetch(link.url)).text()).toBe("");
  });
});

describe("createMemoryFilesService: upload_complete", () => {
  it("answers -32022 'object not pending finalize' without a begin, and on a second complete", async () => {
    const { files, ctx } = await setup();
    await expectRpcError(
      files.uploadComplete({ path: "never.txt", scope: "tool" }, ctx),
      -32022,
      E.NOT_FOUND.errorCode,
    );
    await store(files, "once.txt", "1", ctx);
    await expectRpcError(
      files.uploadComplete({ path: "once.txt", scope: "tool" }, ctx),
      -32022,
      E.NOT_FOUND.errorCode,
      /^object not pending finalize/,
    );
  });

  it("answers pending_upload (-32029) before the PUT lands, and completes after it", async () => {
    const { files, ctx } = await setup();
    const started = await begin(files, "late.txt", "abc", ctx);
    const error = await expectRpcError(
      files.uploadComplete({ path: "late.txt", scope: "tool" }, ctx),
      -32029,
      E.UPSTREAM_ERROR.errorCode,
    );
    expect(error.data).toMatchObject({ reason: "pending_upload" });
    await put(started.put_url, "abc");
    await expect(
      files.uploadComplete({ path: "late.txt", scope: "tool" }, ctx),
    ).resolves.toMatchObject({ size_bytes: 3 });
  });

  it("must use the scope of the begin (-32022 otherwise)", async () => {
    const { files, ctx } = await setup();
    const started = await begin(files, "s.txt", "x", ctx);
    await put(started.put_url, "x");
    await expectRpcError(
      files.uploadComplete({ path: "s.txt", scope: "user" }, ctx),
      -32022,
      E.NOT_FOUND.errorCode,
    );
  });
});

describe("createMemoryFilesService: re-upload and abandoned uploads", () => {
  it("rewrites a path in place: pending while re-uploading, then the new bytes", async () => {
    const { files, ctx, blobServer } = await setup();
    await store(files, "r.txt", "old", ctx);
    const again = await begin(files, "r.txt", "newer", ctx);
    expect((await files.list({ scope: "tool" }, ctx)).items).toEqual([]);
    await expectRpcError(
      files.downloadUrl({ path: "r.txt", scope: "tool" }, ctx),
      -32029,
      E.UPSTREAM_ERROR.errorCode,
      /pending_upload/,
    );
    await put(again.put_url, "newer");
    await files.uploadComplete({ path: "r.txt", scope: "tool" }, ctx);
    const link = await files.downloadUrl({ path: "r.txt", scope: "tool" }, ctx);
    expect(await (await fetch(link.url)).text()).toBe("newer");
    expect(blobServer.storedBytes).toBe(5);
    expect(files.quota.usage("user-1")).toEqual({ usedBytes: 5, reservedBytes: 0 });
  });

  it("reaps an upload never completed once its 600 s reservation lapses; the old version returns", async () => {
    const { files, ctx, clock } = await setup();
    await store(files, "keep.txt", "v1", ctx);
    await begin(files, "keep.txt", "v2-longer", ctx);
    await begin(files, "gone.txt", "xyz", ctx);
    expect(files.quota.usage("user-1")).toEqual({ usedBytes: 2, reservedBytes: 7 + 3 });
    clock.advance(600_000);
    expect((await files.list({ scope: "tool" }, ctx)).items.map((i) => i.path)).toEqual([
      "keep.txt",
    ]);
    await expectRpcError(
      files.uploadComplete({ path: "gone.txt", scope: "tool" }, ctx),
      -32022,
      E.NOT_FOUND.errorCode,
    );
    expect(files.quota.usage("user-1")).toEqual({ usedBytes: 2, reservedBytes: 0 });
  });
});

describe("createMemoryFilesService: concurrency and failures", () => {
  it("two concurrent begins on one path: the later one owns the path and only one reservation stays", async () => {
    const { files, ctx } = await setup();
    const [first, second] = await Promise.all([
      begin(files, "same.txt", "first", ctx),
      begin(files, "same.txt", "second!", ctx),
    ]);
    expect(files.quota.usage("user-1").reservedBytes).toBe(7);
    await put(first.put_url, "first");
    await put(second.put_url, "second!");
    const done = await files.uploadComplete({ path: "same.txt", scope: "tool" }, ctx);
    expect(done.size_bytes).toBe(7);
    expect(files.quota.usage("user-1")).toEqual({ usedBytes: 7, reservedBytes: 0 });
  });

  it("a delete racing an upload_complete wins: nothing is charged for the deleted object", async () => {
    const { files, ctx } = await setup();
    const started = await begin(files, "race.txt", "abc", ctx);
    await put(started.put_url, "abc");
    const completing = files.uploadComplete({ path: "race.txt", scope: "tool" }, ctx);
    const deleting = files.delete({ path: "race.txt", scope: "tool" }, ctx);
    await expect(deleting).resolves.toEqual({ deleted: true });
    await expectRpcError(completing, -32022, E.NOT_FOUND.errorCode, /not pending finalize/);
    expect(files.quota.usage("user-1").usedBytes).toBe(0);
  });

  it("answers -32029 when the blob server cannot presign, and leaves nothing pending", async () => {
    const clock = manualClock();
    const blobServer = new LoopbackBlobServer({ clock: clock.now });
    onTestFinished(() => blobServer.close());
    const files = createMemoryFilesService({ blobServer, clock: clock.now });
    const ctx = storageCtx();
    await expectRpcError(
      begin(files, "x.txt", "abc", ctx),
      -32029,
      E.UPSTREAM_ERROR.errorCode,
      /await start\(\)/,
    );
    expect(files.quota.usage("user-1").reservedBytes).toBe(0);
    await expectRpcError(
      files.delete({ path: "x.txt", scope: "tool" }, ctx),
      -32022,
      E.NOT_FOUND.errorCode,
    );
  });
});

describe("createMemoryFilesService: abandoned uploads anywhere", () => {
  it("frees the bytes of uploads PUT but never completed at the next begin after 600 s", async () => {
    const { files, ctx, clock, blobServer } = await setup();
    const other = storageCtx({ toolId: "tool-b" });
    const started = await begin(files, "left/behind.txt", "12345", other);
    await put(started.put_url, "12345");
    expect(blobServer.storedBytes).toBe(5);
    clock.advance(600_000);
    await begin(files, "fresh.txt", "x", ctx);
    await expect.poll(() => blobServer.storedBytes, { timeout: 1_000 }).toBe(0);
    expect(files.quota.usage("user-1").reservedBytes).toBe(1);
  });
});

describe("createMemoryFilesService: download_url", () => {
  it("defaults to 300 s, honours ttl_seconds up to 3600 and expires_in, rejects bad ttl_seconds (-32028)", async () => {
    const { files, ctx, clock } = await setup();
    await store(files, "d.txt", "d", ctx);
    const at = (s: number) => new Date(T0_MS + s * 1000).toISOString();
    expect((await files.downloadUrl({ path: "d.txt", scope: "tool" }, ctx)).expires_at).toBe(
      at(300),
    );
    expect(
      (await files.downloadUrl({ path: "d.txt", scope: "tool", ttl_seconds: 3600 }, ctx))
        .expires_at,
    ).toBe(at(3600));
    expect(
      (await files.downloadUrl({ path: "d.txt", scope: "tool", expires_in: 60 }, ctx)).expires_at,
    ).toBe(at(60));
    expect(
      (await files.downloadUrl({ path: "d.txt", scope: "tool", expires_in: 99_999 }, ctx))
        .expires_at,
    ).toBe(at(3600));
    for (const ttl of [3601, 0.5, 0]) {
      await expectRpcError(
        files.downloadUrl({ path: "d.txt", scope: "tool", ttl_seconds: ttl }, ctx),
        -32028,
        E.INVALID_REQUEST.errorCode,
      );
    }
    const short = await files.downloadUrl({ path: "d.txt", scope: "tool", ttl_seconds: 5 }, ctx);
    clock.advance(5_001);
    expect((await fetch(short.url)).status).toBe(403);
  });

  it("answers -32022 for a missing path and -32027 for a bad one", async () => {
    const { files, ctx } = await setup();
    await expectRpcError(
      files.downloadUrl({ path: "nope", scope: "tool" }, ctx),
      -32022,
      E.NOT_FOUND.errorCode,
    );
    await expectRpcError(
      files.downloadUrl({ path: "/nope", scope: "tool" }, ctx),
      -32027,
      E.INVALID_PATH.errorCode,
    );
  });
});

describe("createMemoryFilesService: list and delete", () => {
  it("pages with cursors, filters by literal prefix, and rejects limits outside 1..1000 with -32027", async () => {
    const { files, ctx } = await setup();
    for (const name of ["b/2", "a/1", "b/1", "b_x", "c"]) await store(files, name, name, ctx);
    await begin(files, "b/pending", "p", ctx);
    const first = await files.list({ scope: "tool", prefix: "b", limit: 2 }, ctx);
    expect(first.items.map((i) => i.path)).toEqual(["b/1", "b/2"]);
    const second = await files.list(
      { scope: "tool", prefix: "b", limit: 2, cursor: first.next_cursor },
      ctx,
    );
    expect(second).toMatchObject({ items: [{ path: "b_x" }], next_cursor: null });
    expect((await files.list({ scope: "tool", prefix: "b/" }, ctx)).items).toHaveLength(2);
    for (const limit of [0, 1001, 1.5, -1]) {
      await expectRpcError(
        files.list({ scope: "tool", limit }, ctx),
        -32027,
        E.INVALID_PATH.errorCode,
      );
    }
    await expectRpcError(
      files.list({ scope: "tool", prefix: "/b" }, ctx),
      -32027,
      E.INVALID_PATH.errorCode,
    );
    expect((await files.list({ scope: "tool", limit: 1000 }, ctx)).items).toHaveLength(5);
  });

  it("deletes objects and pending uploads, refunding quota; a missing path is -32022", async () => {
    const { files, ctx, blobServer, clock } = await setup();
    await store(files, "x.txt", "12345", ctx);
    await begin(files, "p.txt", "123", ctx);
    expect(files.quota.usage("user-1")).toEqual({ usedBytes: 5, reservedBytes: 3 });
    expect(await files.delete({ path: "x.txt", scope: "tool" }, ctx)).toEqual({ deleted: true });
    expect(await files.delete({ path: "p.txt", scope: "tool" }, ctx)).toEqual({ deleted: true });
    // Committed bytes come back at once; the pending upload's reservation lapses on its TTL.
    expect(files.quota.usage("user-1")).toEqual({ usedBytes: 0, reservedBytes: 3 });
    clock.advance(600_000);
    expect(files.quota.usage("user-1")).toEqual({ usedBytes: 0, reservedBytes: 0 });
    await expectRpcError(
      files.delete({ path: "x.txt", scope: "tool" }, ctx),
      -32022,
      E.NOT_FOUND.errorCode,
    );
    await expectRpcError(
      files.downloadUrl({ path: "x.txt", scope: "tool" }, ctx),
      -32022,
      E.NOT_FOUND.errorCode,
    );
    await expect.poll(() => blobServer.storedBytes, { timeout: 1_000 }).toBe(0);
  });
});

describe("createMemoryFilesService: quota", () => {
  it("reserves size_bytes at begin and refuses what does not fit before presigning (-32024)", async () => {
    const { files, ctx } = await setup({ limits: { quotaBytes: 10 } });
    await begin(files, "a", "1234567", ctx);
    await expectRpcError(begin(files, "b", "1234", ctx), -32024, E.QUOTA_EXCEEDED.errorCode);
    // Re-beginning the same path replaces its reservation rather than adding to it.
    await expect(begin(files, "a", "123456789", ctx)).resolves.toBeDefined();
    expect(files.quota.usage("user-1").reservedBytes).toBe(9);
  });

  it("reserves only the growth over the current object", async () => {
    const { files, ctx } = await setup({ limits: { quotaBytes: 10 } });
    await store(files, "a", "12345678", ctx);
    await expect(begin(files, "a", "1234567890", ctx)).resolves.toBeDefined();
    expect(files.quota.usage("user-1")).toEqual({ usedBytes: 8, reservedBytes: 2 });
  });

  it("shares the per-user quota with the KV service it is given", async () => {
    const clock = manualClock();
    const storage = createMemoryStorageService({ clock: clock.now, limits: { quotaBytes: 12 } });
    const { files, ctx } = await setup({ storage });
    await storage.set({ key: "k", value: "12345678", scope: "tool" }, ctx); // 10 bytes
    await expectRpcError(begin(files, "f", "123", ctx), -32024, E.QUOTA_EXCEEDED.errorCode);
    await store(files, "f", "12", ctx);
    await expectRpcError(
      storage.set({ key: "k2", value: 1, scope: "user" }, ctx),
      -32024,
      E.QUOTA_EXCEEDED.errorCode,
    );
    expect(storage.quota).toBe(files.quota);
  });

  it("charges the measured size at complete, not the declared one", async () => {
    const { files, ctx } = await setup();
    const started = await files.uploadBegin(
      { path: "u", scope: "tool", content_type: "text/plain" },
      ctx,
    );
    await put(started.put_url, "measured");
    await files.uploadComplete({ path: "u", scope: "tool", size_bytes: 1 }, ctx);
    expect(files.quota.usage("user-1")).toEqual({ usedBytes: 8, reservedBytes: 0 });
  });
});
