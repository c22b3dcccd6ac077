// The offline agent, image and upload services behind the real router, without processes: the
// router's per-invoke counters and caps and the services' own checks work together, each limit
// applied once, with the right code.
import { AGENT_ERRORS, IMAGE_ERRORS, UPLOAD_ERRORS } from "@anna-ai/app-schema/errors";
import { describe, expect, it, onTestFinished } from "vitest";
import { ReverseRpcRouter } from "../../../src/router/reverse-rpc-router.js";
import { createStaticGrantPolicy } from "../../../src/services/grants.js";
import type { GrantByFamily } from "../../../src/services/grants.js";
import { createOfflineAgentService } from "../../../src/services/offline/agent-offline.js";
import { LoopbackBlobServer } from "../../../src/services/offline/blob-server.js";
import { createOfflineImageService } from "../../../src/services/offline/image-offline.js";
import { MockFixture } from "../../../src/services/offline/mock-fixture.js";
import { createOfflineUploadService } from "../../../src/services/offline/upload-offline.js";
import { NEVER, ctx, invokeStart, sessionInfo } from "../../router/helpers.js";
import { expectCatalogError } from "./helpers.js";

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

async function routed(grants: Partial<GrantByFamily>, agentFixture?: string) {
  const blobServer = new LoopbackBlobServer();
  onTestFinished(() => blobServer.close());
  await blobServer.start();
  const router = new ReverseRpcRouter({
    services: {
      agent: createOfflineAgentService({
        mode: "mock",
        ...(agentFixture ? { fixture: MockFixture.parse(agentFixture, "agent.jsonl") } : {}),
      }),
      image: createOfflineImageService({ mode: "mock", blobServer }),
      upload: createOfflineUploadService({ mode: "synthetic", blobServer }),
    },
    grants: createStaticGrantPolicy(grants),
  });
  const session = router.attach(sessionInfo());
  await session.beginInvoke(invokeStart("inv-1"));
  await session.beginInvoke(invokeStart("inv-2"));
  const call = (method: string, params: Record<string, unknown>, invokeId = "inv-1") =>
    session.handleRequest(method, { ...params, ...ctx(invokeId) }, NEVER) as Promise<
      Record<string, unknown>
    >;
  return { call };
}

const inline = (text: string, extra: Record<string, unknown> = {}) => ({
  mode: "inline",
  filename: "a.txt",
  mime_type: "text/plain",
  content_b64: b64(text),
  ...extra,
});

describe("offline upload behind ReverseRpcRouter", () => {
  it("counts files per invoke on inline and first confirm only (-32211)", async () => {
    const { call } = await routed({ upload: { maxFiles: 3 } });
    const defaulted = await call("host/uploadFile", inline("one"));
    expect(defaulted["r2_key"]).toContain("/inv-1/user_artifact/");
    const offer = await call("host/uploadFile", {
      mode: "negotiate",
      filename: "b.txt",
      mime_type: "text/plain",
      size_bytes: 3,
    });
    const put = await fetch(String(offer["put_url"]), {
      method: "PUT",
      body: "two",
      headers: { "Content-Type": "text/plain" },
    });
    expect(put.status).toBe(200);
    await call("host/uploadFile", { mode: "confirm", r2_key: offer["r2_key"] });
    // Confirming again re-mints the URL for free.
    await call("host/uploadFile", { mode: "confirm", r2_key: offer["r2_key"] });
    await call("host/uploadFile", inline("three"));
    await expectCatalogError(
      call("host/uploadFile", inline("four")),
      UPLOAD_ERRORS.MAX_FILES_EXCEEDED,
    );
    // Another invoke has its own counters, and cannot confirm this invoke's key.
    await call("host/uploadFile", inline("other"), "inv-2");
    await expectCatalogError(
      call("host/uploadFile", { mode: "confirm", r2_key: offer["r2_key"] }, "inv-2"),
      UPLOAD_ERRORS.INVALID_REQUEST,
    );
  });

  it("caps bytes per file and per invoke (-32204), refusing a declared size early", async () => {
    const { call } = await routed({ upload: { maxFileBytes: 8, maxTotalBytes: 12 } });
    await call("host/uploadFile", inline("123456"));
    const total = await expectCatalogError(
      call("host/uploadFile", inline("1234567")),
      UPLOAD_ERRORS.TOO_LARGE,
    );
    expect(total.data).toMatchObject({ limit: "max_total_bytes" });
    const early = await expectCatalogError(
      call("host/uploadFile", {
        mode: "negotiate",
        filename: "big.bin",
        mime_type: "application/octet-stream",
        size_bytes: 9,
      }),
      UPLOAD_ERRORS.TOO_LARGE,
    );
    expect(early.data).toMatchObject({ limit: "max_file_bytes" });
  });

  it("refuses purposes outside the grant (-32206) and SVG (-32205) with their codes", async () => {
    const { call } = await routed({ upload: { allowedPurposes: ["image_input"] } });
    await expectCatalogError(call("host/uploadFile", inline("x")), UPLOAD_ERRORS.PURPOSE_REJECTED);
    await expectCatalogError(
      call(
        "host/uploadFile",
        inline("<svg/>", { mime_type: "image/svg+xml", purpose: "image_input" }),
      ),
      UPLOAD_ERRORS.MIME_REJECTED,
    );
  });
});

describe("offline image and agent behind ReverseRpcRouter", () => {
  it("applies the router's n caps once and the service's daily quota (-32106, -32102)", async () => {
    const { call } = await routed({ image: { generate: true, maxImagesPerDay: 5 } });
    await expectCatalogError(
      call("image/generate", { prompt: "x", n: 5 }),
      IMAGE_ERRORS.MAX_IMAGES_EXCEEDED,
    );
    const first = await call("image/generate", { prompt: "x", n: 3 });
    expect(first["quota_used"]).toEqual({ images_today: 3, images_quota: 5 });
    await expectCatalogError(
      call("image/generate", { prompt: "x", n: 2 }),
      IMAGE_ERRORS.MAX_IMAGES_EXCEEDED,
    );
    await call("image/generate", { prompt: "x", n: 2 }, "inv-2");
    await expectCatalogError(
      call("image/generate", { prompt: "x", n: 1 }, "inv-2"),
      IMAGE_ERRORS.QUOTA_EXCEEDED,
    );
  });

  it("refuses an oversized run with -32047 and agent/complete without the sampling grant", async () => {
    const fixture = JSON.stringify({
      ns: "agent",
      method: "session.run",
      events: Array.from({ length: 5000 }, () => ({ payload: { event: "delta", text: "x" } })),
    });
    const { call } = await routed({ agent: {} }, fixture);
    const created = await call("agent/session.create", { kind: "agent", agent_submode: "auto" });
    await expectCatalogError(
      call("agent/session.run", { app_session_uuid: created["app_session_uuid"], content: "go" }),
      AGENT_ERRORS.RUN_TOO_LARGE,
    );
    await expectCatalogError(
      call("agent/complete", { messages: [{ role: "user", content: "hi" }] }),
      AGENT_ERRORS.NOT_GRANTED,
    );
  });
});
