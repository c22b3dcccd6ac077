// The offline upload service with a real loopback blob server: inline, negotiate → HTTP PUT →
// confirm, the envelope, key ownership, MIME and purpose rules, fixtures.
import { HostUploadFileResultSchema, HostUploadNegotiateResultSchema } from "@anna-ai/app-schema";
import { UPLOAD_ERRORS } from "@anna-ai/app-schema/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UploadGrant } from "../../../src/services/grants.js";
import { LoopbackBlobServer } from "../../../src/services/offline/blob-server.js";
import { MockFixture } from "../../../src/services/offline/mock-fixture.js";
import { createOfflineUploadService } from "../../../src/services/offline/upload-offline.js";
import type { UploadService } from "../../../src/services/upload-service.js";
import { ctxWith, expectCatalogError, manualClock } from "./helpers.js";

const ctx = ctxWith<UploadGrant>({});
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

function inline(
  filename: string,
  mime_type: string,
  content_b64: string,
  purpose = "user_artifact",
) {
  return { mode: "inline" as const, filename, mime_type, content_b64, purpose };
}

describe("createOfflineUploadService", () => {
  // One clock for the service and the server that signs its URLs, so expiry is reproducible.
  const clock = manualClock();
  const blobServer = new LoopbackBlobServer({ clock: clock.now });
  beforeAll(() => blobServer.start());
  afterAll(() => blobServer.close());

  function newService(fixture?: string): UploadService {
    return createOfflineUploadService({
      mode: fixture === undefined ? "synthetic" : "mock",
      blobServer,
      clock: clock.now,
      ...(fixture !== undefined ? { fixture: MockFixture.parse(fixture, "upload.jsonl") } : {}),
    });
  }

  async function put(url: string, body: Buffer | string, contentType: string) {
    return fetch(url, { method: "PUT", body, headers: { "Content-Type": contentType } });
  }

  it("answers -32201 upload_not_granted when off, and needs a blob server otherwise", async () => {
    const upload = createOfflineUploadService({ mode: "off" });
    await expectCatalogError(
      upload.inline(inline("a.txt", "text/plain", b64("x")), ctx),
      UPLOAD_ERRORS.NOT_GRANTED,
    );
    await expectCatalogError(
      upload.confirm({ mode: "confirm", r2_key: "k" }, ctx),
      UPLOAD_ERRORS.NOT_GRANTED,
    );
    expect(UPLOAD_ERRORS.NOT_GRANTED.alias).toBe("upload_not_granted");
    expect(() => createOfflineUploadService({ mode: "synthetic" })).toThrow(/blobServer/);
  });

  it("stores inline uploads and returns both canonical and legacy envelope fields", async () => {
    const upload = newService();
    const result = await upload.inline(
      inline("My Report (1).txt", "Text/Plain", b64("hello")),
      ctx,
    );
    expect(HostUploadFileResultSchema.safeParse(result).success).toBe(true);
    expect(result).toMatchObject({
      mime_type: "text/plain",
      size_bytes: 5,
      bytes: 5,
      expires_in: 1800,
      expires_at: new Date(clock.now() + 1800_000).toISOString(),
      _meta: { mode: "inline" },
    });
    expect(result.url).toBe(result.download_url);
    expect(result.r2_key).toMatch(
      /^exec-uploads\/dev\/user-1\/tool-a\/inv-1\/user_artifact\/\d+_[0-9a-f]{12}_My_Report_1_.txt$/,
    );
    const got = await fetch(result.download_url);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe("hello");
    expect(got.headers.get("content-disposition")).toMatch(
      /^attachment; filename="My_Report_1_.txt"/,
    );
    const png = await upload.inline(inline("p.png", "image/png", b64("png")), ctx);
    expect((await fetch(png.download_url)).headers.get("content-disposition")).toMatch(/^inline/);
  });

  it("refuses malformed or empty base64 (-32203) and inline payloads over 8 MiB (-32204)", async () => {
    const upload = newService();
    for (const content of ["", "   ", "abc$", "a", "ab=c", "abc==="]) {
      await expectCatalogError(
        upload.inline(inline("a.bin", "application/octet-stream", content), ctx),
        UPLOAD_ERRORS.INVALID_REQUEST,
      );
    }
    // URL-safe alphabet, missing padding and line breaks are accepted.
    const loose = await upload.inline(inline("a.bin", "application/octet-stream", "_-8\nA"), ctx);
    expect(loose.size_bytes).toBe(3);
    const big = Buffer.alloc(8 * 1024 * 1024 + 1).toString("base64");
    const error = await expectCatalogError(
      upload.inline(inline("big.bin", "application/octet-stream", big), ctx),
      UPLOAD_ERRORS.TOO_LARGE,
    );
    expect(error.data).toMatchObject({ limit: "inline_max_bytes" });
    await expectCatalogError(
      upload.inline(inline(" ", "text/plain", b64("x")), ctx),
      UPLOAD_ERRORS.INVALID_REQUEST,
      /filename/,
    );
  });

  it("refuses denylisted and malformed MIME types with -32205, and foreign purposes with -32206", async () => {
    const upload = newService();
    for (const mime of [
      "image/svg+xml",
      "IMAGE/SVG+XML; charset=utf-8",
      "application/x-msdownload",
      "application/x-msdos-program",
      "application/x-executable",
      "application/x-sharedlib",
      "text",
      "text/",
      "",
    ]) {
      await expectCatalogError(
        upload.inline(inline("a", mime, b64("x")), ctx),
        UPLOAD_ERRORS.MIME_REJECTED,
      );
    }
    const office = await upload.inline(
      inline(
        "a.docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        b64("x"),
      ),
      ctx,
    );
    expect(office.mime_type).toBe(
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    );
    await expectCatalogError(
      upload.inline(inline("a.txt", "text/plain", b64("x"), "backup"), ctx),
      UPLOAD_ERRORS.PURPOSE_REJECTED,
    );
    const imagesOnly = ctxWith<UploadGrant>({ allowedPurposes: ["image_input"] });
    await expectCatalogError(
      upload.negotiate(
        { mode: "negotiate", filename: "a.txt", mime_type: "text/plain", purpose: "user_artifact" },
        imagesOnly,
      ),
      UPLOAD_ERRORS.PURPOSE_REJECTED,
    );
    const input = await upload.inline(
      inline("a.png", "image/png", b64("x"), "image_input"),
      imagesOnly,
    );
    expect(input.r2_key).toContain("/image_input/");
  });

  it("negotiate → real HTTP PUT → confirm, and re-confirm mints a fresh URL", async () => {
    const upload = newService();
    const body = Buffer.from("a".repeat(3000));
    const offer = await upload.negotiate(
      {
        mode: "negotiate",
        filename: "notes.md",
        mime_type: "Text/Markdown",
        size_bytes: body.length,
        purpose: "user_artifact",
      },
      ctx,
    );
    expect(HostUploadNegotiateResultSchema.safeParse(offer).success).toBe(true);
    expect(offer).toMatchObject({
      headers: { "Content-Type": "Text/Markdown" },
      expires_in: 300,
      expires_at: new Date(clock.now() + 300_000).toISOString(),
      _meta: { mode: "presigned-put" },
    });
    await expectCatalogError(
      upload.confirm({ mode: "confirm", r2_key: offer.r2_key }, ctx),
      UPLOAD_ERRORS.NOT_FOUND,
    );
    expect((await put(offer.put_url, body, "text/plain")).status).toBe(403);
    const stored = await put(offer.put_url, body, "Text/Markdown");
    expect(stored.status).toBe(200);
    expect(stored.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);

    const confirmed = await upload.confirm({ mode: "confirm", r2_key: offer.r2_key }, ctx);
    expect(HostUploadFileResultSchema.safeParse(confirmed).success).toBe(true);
    expect(confirmed).toMatchObject({
      r2_key: offer.r2_key,
      mime_type: "text/markdown",
      size_bytes: 3000,
      bytes: 3000,
      _meta: { mode: "confirm" },
    });
    const got = await fetch(confirmed.download_url);
    expect(Buffer.from(await got.arrayBuffer()).equals(body)).toBe(true);
    expect(got.headers.get("content-disposition")).toMatch(/filename="notes.md"/);

    const confirmedAt = clock.now();
    clock.advance(60_000);
    const again = await upload.confirm({ mode: "confirm", r2_key: offer.r2_key }, ctx);
    expect(again.r2_key).toBe(offer.r2_key);
    expect(again.download_url).not.toBe(confirmed.download_url);
    expect(again.expires_at).toBe(new Date(confirmedAt + 60_000 + 1800_000).toISOString());
  });

  it("confirm refuses keys of another user, executa or invoke with -32203", async () => {
    const upload = newService();
    const offer = await upload.negotiate(
      { mode: "negotiate", filename: "a.txt", mime_type: "text/plain", purpose: "user_artifact" },
      ctx,
    );
    await put(offer.put_url, "x", "text/plain");
    for (const other of [
      ctxWith<UploadGrant>({}, { invokeId: "inv-2" }),
      ctxWith<UploadGrant>({}, { toolId: "tool-b" }),
      ctxWith<UploadGrant>({}, { userId: "user-2" }),
    ]) {
      await expectCatalogError(
        upload.confirm({ mode: "confirm", r2_key: offer.r2_key }, other),
        UPLOAD_ERRORS.INVALID_REQUEST,
        /not issued/,
      );
    }
    for (const key of ["exec-uploads/dev/user-1/tool-a/inv-1/x", "../../etc/passwd", "x"]) {
      await expectCatalogError(
        upload.confirm({ mode: "confirm", r2_key: key }, ctx),
        UPLOAD_ERRORS.INVALID_REQUEST,
      );
    }
  });

  it("confirm refuses an upload over the per-file limit (-32204) and drops it", async () => {
    const upload = newService();
    const small = ctxWith<UploadGrant>({ maxFileBytes: 1024 });
    const offer = await upload.negotiate(
      {
        mode: "negotiate",
        filename: "a.bin",
        mime_type: "application/octet-stream",
        expected_bytes: 1000,
        purpose: "user_artifact",
      },
      small,
    );
    // The object store does not enforce the declared size (L9620); confirm does.
    expect((await put(offer.put_url, Buffer.alloc(2048), "application/octet-stream")).status).toBe(
      200,
    );
    const error = await expectCatalogError(
      upload.confirm({ mode: "confirm", r2_key: offer.r2_key }, small),
      UPLOAD_ERRORS.TOO_LARGE,
    );
    expect(error.data).toMatchObject({ limit: "max_file_bytes", maxBytes: 1024 });
    expect(await blobServer.stat(offer.r2_key)).toBeUndefined();
    await expectCatalogError(
      upload.negotiate(
        {
          mode: "negotiate",
          filename: "a",
          mime_type: "text/plain",
          expected_bytes: 0,
          purpose: "user_artifact",
        },
        ctx,
      ),
      UPLOAD_ERRORS.INVALID_REQUEST,
    );
  });

  it("mints the same keys for the same calls in a fresh service", async () => {
    const params = {
      mode: "negotiate" as const,
      filename: "a.txt",
      mime_type: "text/plain",
      purpose: "user_artifact",
    };
    const first = await newService().negotiate(params, ctx);
    const second = await newService().negotiate(params, ctx);
    expect(second.r2_key).toBe(first.r2_key);
    const upload = newService();
    const keys = [await upload.negotiate(params, ctx), await upload.negotiate(params, ctx)];
    expect(keys[0]?.r2_key).not.toBe(keys[1]?.r2_key);
  });

  it("answers from fixture lines matched on mode and falls back to real uploads", async () => {
    const fixture = [
      '{"ns":"host","method":"uploadFile","match":{"mode":"inline","filename":"canned.txt"},"result":{"r2_key":"exec-uploads/dev/fixture","download_url":"https://r2.example/c","url":"https://r2.example/c","mime_type":"text/plain","size_bytes":1,"bytes":1,"expires_at":"2026-01-01T00:30:00.000Z","expires_in":1800,"_meta":{"mode":"inline"}}}',
      '{"ns":"upload","method":"negotiate","match":{"mode":"negotiate","filename":"canned.bin"},"result":{"r2_key":"exec-uploads/dev/canned","put_url":"https://r2.example/put","headers":{"Content-Type":"application/octet-stream"},"expires_in":300,"expires_at":"2026-01-01T00:05:00.000Z","_meta":{"mode":"presigned-put"}}}',
      '{"ns":"upload","method":"confirm","match":{"mode":"confirm","r2_key":"exec-uploads/dev/canned"},"result":{"r2_key":"exec-uploads/dev/canned","download_url":"https://r2.example/get","url":"https://r2.example/get","mime_type":"application/octet-stream","size_bytes":3,"bytes":3,"expires_at":"2026-01-01T00:30:00.000Z","expires_in":1800,"_meta":{"mode":"confirm"}}}',
      '{"ns":"upload","method":"negotiate","match":{"mode":"negotiate"},"error":{"code":-32202,"message":"quota_exceeded"}}',
    ].join("\n");
    const upload = newService(fixture);
    expect(await upload.inline(inline("canned.txt", "text/plain", b64("x")), ctx)).toMatchObject({
      download_url: "https://r2.example/c",
    });
    await expectCatalogError(
      upload.negotiate(
        { mode: "negotiate", filename: "a", mime_type: "text/plain", purpose: "user_artifact" },
        ctx,
      ),
      UPLOAD_ERRORS.QUOTA_EXCEEDED,
      "quota_exceeded",
    );
    const canned = await upload.negotiate(
      {
        mode: "negotiate",
        filename: "canned.bin",
        mime_type: "application/octet-stream",
        purpose: "user_artifact",
      },
      ctx,
    );
    expect(await upload.confirm({ mode: "confirm", r2_key: canned.r2_key }, ctx)).toMatchObject({
      download_url: "https://r2.example/get",
      _meta: { mode: "confirm" },
    });
    const real = await upload.inline(inline("real.txt", "text/plain", b64("real")), ctx);
    expect(await (await fetch(real.download_url)).text()).toBe("real");
    // Validation still comes first: the fixture plays the object store, not the host.
    await expectCatalogError(
      upload.inline(inline("canned.txt", "image/svg+xml", b64("x")), ctx),
      UPLOAD_ERRORS.MIME_REJECTED,
    );
  });
});
