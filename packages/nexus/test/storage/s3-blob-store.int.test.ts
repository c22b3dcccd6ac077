// The S3-compatible blob store against a real s3rver on 127.0.0.1: presigned PUT and GET URLs
// that the server verifies (SigV4, Content-Type signed), HEAD and delete, readiness, and the
// SQL files service running on it end to end.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseS3Url, S3BlobStore } from "../../src/blobs/s3-blob-store.js";
import { openBlobStore } from "../../src/blobs/open-blob-store.js";
import { nullLogger } from "../../src/core/logger.js";
import { openDatabase } from "../../src/db/connect.js";
import { migrateToLatest } from "../../src/db/migrate.js";
import { createSqlFilesService } from "../../src/storage/sql-files-store.js";
import { ctxFor } from "../helpers/storage.js";

let s3: S3rver;
let endpoint: string;
const dir = mkdtempSync(join(tmpdir(), "anna-nexus-s3rver-"));
const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

beforeAll(async () => {
  // s3rver's fixed development credentials, through the SDK's usual environment chain.
  process.env.AWS_ACCESS_KEY_ID = "S3RVER";
  process.env.AWS_SECRET_ACCESS_KEY = "S3RVER";
  s3 = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: join(dir, "s3"),
    configureBuckets: [{ name: "anna" }],
  });
  const addr = await s3.run();
  endpoint = `http://127.0.0.1:${addr.port}`;
});
afterAll(async () => {
  await s3?.close();
  process.env.AWS_ACCESS_KEY_ID = saved.id;
  process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
  if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
  if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  rmSync(dir, { recursive: true, force: true });
});

const store = (bucket = "anna") =>
  new S3BlobStore(
    parseS3Url(`s3://${bucket}?endpoint=${endpoint}&region=us-east-1&prefix=t/`, Date.now),
  );

describe("S3 blob store on s3rver", () => {
  it("parses its URL and refuses credentials in it", () => {
    expect(
      parseS3Url("s3://b?endpoint=http://127.0.0.1:9000&region=eu-west-1", Date.now),
    ).toMatchObject({
      bucket: "b",
      endpoint: "http://127.0.0.1:9000",
      region: "eu-west-1",
      prefix: "",
    });
    expect(() => parseS3Url("s3://key:secret@b", Date.now)).toThrow(/AWS_ACCESS_KEY_ID/);
    expect(() => parseS3Url("s3://b?endpoint=ftp://x", Date.now)).toThrow(/endpoint/);
  });

  it("is ready only when the bucket answers", async () => {
    await store().ping();
    await expect(store("no-such-bucket").ping()).rejects.toThrow();
    const opened = await openBlobStore({
      url: `s3://anna?endpoint=${endpoint}`,
      dataDir: dir,
      origin: () => "",
      clock: Date.now,
    });
    expect(opened.description).toBe(`s3 (anna at ${endpoint})`);
  });

  // s3rver accepts any SigV4 query signature (it checks only V2), so what is asserted here is
  // that the URL signs Content-Type, which S3 and R2 enforce; the filesystem store's tests
  // cover enforcement, and upload_complete re-checks the stored type whatever the store.
  it("presigns a PUT that signs its Content-Type and a GET that serves the bytes", async () => {
    const s = store();
    const put = await s.presignPut("obj/1", {
      contentType: "text/plain",
      maxBytes: 100,
      ttlSeconds: 60,
    });
    const q = new URL(put.url).searchParams;
    expect(q.get("X-Amz-SignedHeaders")).toBe("content-type;host");
    expect(q.get("X-Amz-Expires")).toBe("60");
    expect(new URL(put.url).pathname).toBe("/anna/t/obj/1");
    const ok = await fetch(put.url, { method: "PUT", body: "hello", headers: put.headers });
    expect(ok.status).toBe(200);
    expect(await s.head("obj/1")).toMatchObject({ sizeBytes: 5, contentType: "text/plain" });
    expect(await s.sha256("obj/1")).toBe(
      "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
    );
    const get = await s.presignGet("obj/1", { ttlSeconds: 60, filename: "hello.txt" });
    const res = await fetch(get.url);
    expect(await res.text()).toBe("hello");
    expect(res.headers.get("content-disposition")).toContain('filename="hello.txt"');
    await s.delete("obj/1");
    expect(await s.head("obj/1")).toBeUndefined();
    await s.delete("obj/1");
  });

  it("stores a local file server-side (bundle files, listing images)", async () => {
    const s = store();
    const file = join(dir, "putfile.bin");
    writeFileSync(file, "bundle bytes");
    await s.putFile("app-bundles/x", file, "text/javascript");
    expect(await s.head("app-bundles/x")).toMatchObject({
      sizeBytes: 12,
      contentType: "text/javascript",
    });
    expect(await s.sha256("app-bundles/x")).toBe(
      createHash("sha256").update("bundle bytes").digest("hex"),
    );
    await s.delete("app-bundles/x");
  });

  it("carries the SQL files service end to end", async () => {
    const h = openDatabase({ dataDir: join(dir, "db") });
    await migrateToLatest(h.db);
    try {
      const files = createSqlFilesService({
        db: h.db,
        blobs: store(),
        clock: Date.now,
        logger: nullLogger,
      });
      const a = ctxFor("1");
      const begin = (await files.uploadBegin(
        { scope: "user", path: "r/a.json", content_type: "application/json", size_bytes: 7 },
        a,
      )) as { put_url: string; headers: Record<string, string> };
      expect(
        (await fetch(begin.put_url, { method: "PUT", body: '{"a":1}', headers: begin.headers }))
          .status,
      ).toBe(200);
      const done = await files.uploadComplete({ scope: "user", path: "r/a.json" }, a);
      expect(done).toMatchObject({ size_bytes: 7, content_type: "application/json" });
      const url = (await files.downloadUrl({ scope: "user", path: "r/a.json" }, a)) as {
        get_url: string;
      };
      expect(await (await fetch(url.get_url)).text()).toBe('{"a":1}');
      // A body over the declared size is refused at complete (S3 does not bind the length).
      const over = (await files.uploadBegin(
        { scope: "user", path: "r/b.bin", content_type: "application/octet-stream", size_bytes: 2 },
        a,
      )) as { put_url: string; headers: Record<string, string> };
      await fetch(over.put_url, { method: "PUT", body: "too long", headers: over.headers });
      await expect(
        files.uploadComplete({ scope: "user", path: "r/b.bin" }, a),
      ).rejects.toMatchObject({ code: -32025 });
    } finally {
      await h.close();
    }
  });
});
