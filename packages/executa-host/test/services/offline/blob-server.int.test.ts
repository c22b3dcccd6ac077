import { createHash } from "node:crypto";
import { request } from "node:http";
import { describe, expect, it, onTestFinished } from "vitest";
import { LoopbackBlobServer } from "../../../src/services/offline/blob-server.js";
import type { LoopbackBlobServerOptions } from "../../../src/services/offline/blob-server.js";
import {
  contentDisposition,
  dispositionType,
} from "../../../src/services/offline/blob-server-signing.js";

async function started(options: LoopbackBlobServerOptions = {}): Promise<LoopbackBlobServer> {
  const server = new LoopbackBlobServer(options);
  onTestFinished(() => server.close());
  await server.start();
  return server;
}

function md5(text: string): string {
  return `"${createHash("md5").update(text).digest("hex")}"`;
}

/** A raw PUT with node:http, so a refused body never turns into a client-side socket error. */
function rawPut(
  url: string,
  headers: Record<string, string>,
  chunks: readonly Buffer[],
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "PUT", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe("LoopbackBlobServer", () => {
  it("stores a PUT and answers 200 with the MD5 ETag, then serves the bytes on GET and HEAD", async () => {
    const server = await started();
    const put = await server.presignPut("a/report.txt", {
      contentType: "text/plain",
      ttlSeconds: 60,
    });
    expect(put.url.startsWith("http://127.0.0.1:")).toBe(true);
    expect(put.headers).toEqual({ "Content-Type": "text/plain" });
    const putRes = await fetch(put.url, { method: "PUT", headers: put.headers, body: "hello" });
    expect(putRes.status).toBe(200);
    expect(putRes.headers.get("etag")).toBe(md5("hello"));

    const stat = await server.stat("a/report.txt");
    expect(stat).toMatchObject({ sizeBytes: 5, contentType: "text/plain", etag: md5("hello") });
    expect(Buffer.from((await server.read("a/report.txt")) ?? []).toString()).toBe("hello");

    const get = await server.presignGet("a/report.txt", { ttlSeconds: 60, filename: "report.txt" });
    const getRes = await fetch(get.url);
    expect(getRes.status).toBe(200);
    expect(getRes.headers.get("content-type")).toBe("text/plain");
    expect(getRes.headers.get("content-disposition")).toBe(
      `attachment; filename="report.txt"; filename*=UTF-8''report.txt`,
    );
    expect(getRes.headers.get("etag")).toBe(md5("hello"));
    expect(await getRes.text()).toBe("hello");

    const head = await fetch(get.url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("5");
    expect(await head.text()).toBe("");
  });

  it("refuses a PUT whose Content-Type differs from the signed one with 403 SignatureDoesNotMatch", async () => {
    const server = await started();
    const put = await server.presignPut("k", { contentType: "image/png", ttlSeconds: 60 });
    const res = await fetch(put.url, {
      method: "PUT",
      headers: { "Content-Type": "application/octet-stream" },
      body: "x",
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("<Code>SignatureDoesNotMatch</Code>");
    expect(await server.stat("k")).toBeUndefined();
  });

  it("refuses a tampered URL (another key, a later expiry, a bigger cap)", async () => {
    const server = await started();
    const put = await server.presignPut("mine", {
      contentType: "text/plain",
      maxBytes: 4,
      ttlSeconds: 60,
    });
    const tampered = [
      put.url.replace("/blob/mine", "/blob/theirs"),
      put.url.replace(/X-Expires=\d+/, "X-Expires=99999999999999"),
      put.url.replace("X-Max-Bytes=4", "X-Max-Bytes=4000"),
    ];
    for (const url of tampered) {
      const res = await fetch(url, { method: "PUT", headers: put.headers, body: "abc" });
      expect(res.status).toBe(403);
    }
    const get = await server.presignGet("mine", { ttlSeconds: 60 });
    // A GET URL does not authorise a PUT.
    const res = await fetch(get.url, { method: "PUT", headers: put.headers, body: "abc" });
    expect(res.status).toBe(403);
  });

  it("answers 403 AccessDenied once the URL has expired on the injected clock", async () => {
    let now = 1_700_000_000_000;
    const server = await started({ clock: () => now });
    const put = await server.presignPut("k", { contentType: "text/plain", ttlSeconds: 300 });
    expect(put.expiresAtMs).toBe(now + 300_000);
    expect(put.expiresAt).toBe(new Date(now + 300_000).toISOString());
    now += 300_001;
    const res = await fetch(put.url, { method: "PUT", headers: put.headers, body: "late" });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Request has expired");

    now -= 1;
    const ok = await fetch(put.url, { method: "PUT", headers: put.headers, body: "on time" });
    expect(ok.status).toBe(200);
    const get = await server.presignGet("k", { ttlSeconds: 10 });
    now += 10_001;
    expect((await fetch(get.url)).status).toBe(403);
  });

  it("answers 413 for a declared Content-Length over the cap without storing anything", async () => {
    const server = await started();
    const put = await server.presignPut("k", {
      contentType: "text/plain",
      maxBytes: 10,
      ttlSeconds: 60,
    });
    const res = await fetch(put.url, { method: "PUT", headers: put.headers, body: "x".repeat(11) });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("EntityTooLarge");
    expect(await server.stat("k")).toBeUndefined();
    const exact = await fetch(put.url, {
      method: "PUT",
      headers: put.headers,
      body: "x".repeat(10),
    });
    expect(exact.status).toBe(200);
  });

  it("answers 413 while streaming a chunked body that grows over the cap", async () => {
    const server = await started({ maxObjectBytes: 64 * 1024 });
    const put = await server.presignPut("k", { contentType: "text/plain", ttlSeconds: 60 });
    const chunk = Buffer.alloc(16 * 1024, 97);
    const res = await rawPut(
      put.url,
      { "Content-Type": "text/plain", "Transfer-Encoding": "chunked" },
      [chunk, chunk, chunk, chunk, chunk],
    );
    expect(res.status).toBe(413);
    expect(await server.stat("k")).toBeUndefined();
    expect(server.storedBytes).toBe(0);
  });

  it("answers Expect: 100-continue with 100 when the URL is good and a final 4xx when not", async () => {
    const server = await started();
    const put = await server.presignPut("k", {
      contentType: "text/plain",
      maxBytes: 4,
      ttlSeconds: 60,
    });
    const send = (headers: Record<string, string>, body: string) =>
      new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
        let continued = false;
        const req = request(put.url, {
          method: "PUT",
          headers: { Expect: "100-continue", "Content-Length": String(body.length), ...headers },
        });
        req.on("continue", () => {
          continued = true;
          req.end(body);
        });
        req.on("response", (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, continued }));
        });
        req.on("error", reject);
        req.flushHeaders();
      });
    expect(await send({ "Content-Type": "text/plain" }, "abcd")).toEqual({
      status: 200,
      continued: true,
    });
    expect(await send({ "Content-Type": "text/html" }, "abcd")).toEqual({
      status: 403,
      continued: false,
    });
    expect(await send({ "Content-Type": "text/plain" }, "abcde")).toEqual({
      status: 413,
      continued: false,
    });
  });

  it("refuses new objects once the server-wide cap is reached, and delete frees the room", async () => {
    const server = await started({ maxStoredBytes: 8 });
    await server.put("a", Buffer.from("12345"), { contentType: "text/plain" });
    const put = await server.presignPut("b", { contentType: "text/plain", ttlSeconds: 60 });
    const full = await fetch(put.url, { method: "PUT", headers: put.headers, body: "6789" });
    expect(full.status).toBe(507);
    expect(await server.delete("a")).toBe(true);
    expect(await server.delete("a")).toBe(false);
    const ok = await fetch(put.url, { method: "PUT", headers: put.headers, body: "6789" });
    expect(ok.status).toBe(200);
    expect(server.storedBytes).toBe(4);
  });

  it("answers 404 NoSuchKey for a signed GET of a missing object", async () => {
    const server = await started();
    const get = await server.presignGet("nothing", { ttlSeconds: 60 });
    const res = await fetch(get.url);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("NoSuchKey");
  });

  it("serves images inline and everything else as an attachment (T28)", async () => {
    const server = await started();
    await server.put("img", Buffer.from([1, 2, 3]), { contentType: "image/png" });
    const get = await server.presignGet("img", { ttlSeconds: 60, filename: "ünï.png" });
    const res = await fetch(get.url);
    expect(res.headers.get("content-disposition")).toBe(
      `inline; filename="_n_.png"; filename*=UTF-8''%C3%BCn%C3%AF.png`,
    );
    expect(dispositionType("image/jpeg")).toBe("inline");
    expect(dispositionType("audio/mpeg")).toBe("inline");
    expect(dispositionType("video/mp4")).toBe("inline");
    expect(dispositionType("application/pdf")).toBe("inline");
    expect(dispositionType("Application/PDF; charset=binary")).toBe("inline");
    expect(dispositionType("text/html")).toBe("attachment");
    expect(dispositionType("image/svg+xml")).toBe("attachment");
    expect(contentDisposition("text/plain")).toBe("attachment");
  });

  it("keys with slashes, spaces and unicode round-trip through the URL", async () => {
    const server = await started();
    const key = "files/user 1/dir/ä b?c#d.txt";
    const put = await server.presignPut(key, { contentType: "text/plain", ttlSeconds: 60 });
    expect((await fetch(put.url, { method: "PUT", headers: put.headers, body: "z" })).status).toBe(
      200,
    );
    expect((await server.stat(key))?.sizeBytes).toBe(1);
  });

  it("close() stops the listener and drops every object", async () => {
    const server = new LoopbackBlobServer();
    await server.start();
    await server.put("k", Buffer.from("abc"), { contentType: "text/plain" });
    const get = await server.presignGet("k", { ttlSeconds: 60 });
    await server.close();
    expect(await server.stat("k")).toBeUndefined();
    await expect(fetch(get.url)).rejects.toThrow();
    await expect(server.start()).rejects.toThrow(/closed/);
  });

  it("presigning before start() fails with a clear message", async () => {
    const server = new LoopbackBlobServer();
    onTestFinished(() => server.close());
    await expect(
      server.presignPut("k", { contentType: "text/plain", ttlSeconds: 60 }),
    ).rejects.toThrow(/await start\(\)/);
  });
});
