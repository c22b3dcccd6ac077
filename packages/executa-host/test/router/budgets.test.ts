import { describe, expect, it } from "vitest";
import { ReverseRpcRouter } from "../../src/router/reverse-rpc-router.js";
import {
  AGENT_MAX_FRAMES_PER_RUN,
  IMAGE_MAX_IMAGES_PER_INVOKE,
  SAMPLING_MAX_CALLS_PER_INVOKE,
  SAMPLING_MAX_TOKENS_PER_INVOKE,
  STORAGE_MAX_CALLS_PER_INVOKE,
  UPLOAD_INLINE_MAX_BYTES,
  UPLOAD_MAX_FILES_PER_INVOKE,
} from "../../src/router/limits.js";
import { createStaticGrantPolicy } from "../../src/services/grants.js";
import type { GrantByFamily } from "../../src/services/grants.js";
import { createRecordingServices } from "../../src/services/recording-services.js";
import type { RecordingServicesOptions } from "../../src/services/recording-services.js";
import type { ReverseRpcRouterOptions } from "../../src/router/reverse-rpc-router.js";
import { NEVER, SAMPLE, ctx, expectRpcError, invokeStart, sessionInfo } from "./helpers.js";

const ALL: Partial<GrantByFamily> = {
  sampling: {},
  agent: {},
  storage: {},
  files: {},
  image: { edit: true },
  upload: {},
  embeddings: {},
};

async function open(
  grants: Partial<GrantByFamily> = ALL,
  respond?: RecordingServicesOptions["respond"],
  options: Partial<ReverseRpcRouterOptions> = {},
) {
  const services = createRecordingServices(respond ? { respond } : {});
  const router = new ReverseRpcRouter({
    services,
    grants: createStaticGrantPolicy(grants),
    ...options,
  });
  const session = router.attach(sessionInfo());
  await session.beginInvoke(invokeStart("inv-1"));
  await session.beginInvoke(invokeStart("inv-2"));
  const call = (method: string, params: Record<string, unknown>, invokeId = "inv-1") =>
    session.handleRequest(method, { ...params, ...ctx(invokeId) }, NEVER);
  return { session, services, call };
}

function b64(bytes: number): string {
  return Buffer.alloc(bytes, 1).toString("base64");
}

describe("sampling budget", () => {
  it(`allows ${SAMPLING_MAX_CALLS_PER_INVOKE} calls per invoke, then -32006, per invoke`, async () => {
    const { call } = await open();
    for (let i = 0; i < SAMPLING_MAX_CALLS_PER_INVOKE; i++) {
      await call("sampling/createMessage", SAMPLE);
    }
    await expectRpcError(
      call("sampling/createMessage", SAMPLE),
      -32006,
      "SAMPLING_MAX_CALLS_EXCEEDED",
      /8 calls per invoke/,
    );
    await call("sampling/createMessage", SAMPLE, "inv-2");
  });

  it("caps calls at the grant's maxCalls, never above the host cap", async () => {
    const low = await open({ sampling: { maxCalls: 2 } });
    await low.call("sampling/createMessage", SAMPLE);
    await low.call("sampling/createMessage", SAMPLE);
    await expectRpcError(
      low.call("sampling/createMessage", SAMPLE),
      -32006,
      "SAMPLING_MAX_CALLS_EXCEEDED",
    );

    const high = await open({ sampling: { maxCalls: 100 } });
    for (let i = 0; i < SAMPLING_MAX_CALLS_PER_INVOKE; i++)
      await high.call("sampling/createMessage", SAMPLE);
    await expectRpcError(
      high.call("sampling/createMessage", SAMPLE),
      -32006,
      "SAMPLING_MAX_CALLS_EXCEEDED",
    );
  });

  it("counts reported tokens cumulatively and refuses a call that would pass 32 000 with -32007", async () => {
    const { call } = await open(ALL, (c) =>
      c.service === "sampling"
        ? {
            role: "assistant",
            content: { type: "text", text: "x" },
            model: "m",
            stopReason: "endTurn",
            usage: { inputTokens: 7000, outputTokens: 3000, totalTokens: 10_000 },
          }
        : undefined,
    );
    for (let i = 0; i < 3; i++)
      await call("sampling/createMessage", { ...SAMPLE, maxTokens: 1000 });
    // 30 000 used: 2000 more fits exactly, 2001 does not.
    await expectRpcError(
      call("sampling/createMessage", { ...SAMPLE, maxTokens: 2001 }),
      -32007,
      "SAMPLING_MAX_TOKENS_EXCEEDED",
      /30000 of 32000/,
    );
    await call("sampling/createMessage", { ...SAMPLE, maxTokens: 2000 });
    await expectRpcError(
      call("sampling/createMessage", { ...SAMPLE, maxTokens: 1 }),
      -32007,
      "SAMPLING_MAX_TOKENS_EXCEEDED",
    );
    expect(SAMPLING_MAX_TOKENS_PER_INVOKE).toBe(32_000);
  });

  it("reserves maxTokens of concurrent calls so they cannot overshoot together", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { call } = await open({ sampling: { maxTokensTotal: 10_000 } }, async () => {
      await gate;
      return undefined;
    });
    const first = call("sampling/createMessage", { ...SAMPLE, maxTokens: 6000 });
    await expectRpcError(
      call("sampling/createMessage", { ...SAMPLE, maxTokens: 6000 }),
      -32007,
      "SAMPLING_MAX_TOKENS_EXCEEDED",
    );
    release();
    await first;
    // The first call reported 2 tokens; its reservation is released.
    await call("sampling/createMessage", { ...SAMPLE, maxTokens: 6000 });
  });
});

describe("storage budget", () => {
  it(`shares ${STORAGE_MAX_CALLS_PER_INVOKE} calls per invoke between storage/* and files/*, then -32026`, async () => {
    const { call } = await open();
    for (let i = 0; i < STORAGE_MAX_CALLS_PER_INVOKE / 2; i++) {
      await call("storage/get", { key: "k" });
      await call("files/list", {});
    }
    await expectRpcError(
      call("storage/set", { key: "k", value: 1 }),
      -32026,
      "STORAGE_RATE_LIMITED",
      /200/,
    );
    await expectRpcError(call("files/list", {}), -32026, "STORAGE_RATE_LIMITED");
    await call("storage/get", { key: "k" }, "inv-2");
  });
});

describe("upload budget", () => {
  it(`counts inline and first confirm against ${UPLOAD_MAX_FILES_PER_INVOKE} files; negotiate is free`, async () => {
    const { call } = await open({ upload: { maxFiles: 2 } });
    for (let i = 0; i < 5; i++) {
      await call("host/uploadFile", {
        mode: "negotiate",
        filename: "a",
        mime_type: "image/png",
        expected_bytes: 1,
      });
    }
    const { r2_key } = (await call("host/uploadFile", {
      mode: "negotiate",
      filename: "a",
      mime_type: "image/png",
    })) as { r2_key: string };
    await call("host/uploadFile", { mode: "confirm", r2_key });
    // A second confirm of the same key mints a fresh URL at no cost.
    await call("host/uploadFile", { mode: "confirm", r2_key });
    await call("host/uploadFile", {
      mode: "inline",
      filename: "b",
      mime_type: "text/plain",
      content_b64: b64(3),
    });
    await expectRpcError(
      call("host/uploadFile", {
        mode: "inline",
        filename: "c",
        mime_type: "text/plain",
        content_b64: b64(3),
      }),
      -32211,
      "UPLOAD_MAX_FILES_EXCEEDED",
      /2 files per invoke/,
    );
    expect(UPLOAD_MAX_FILES_PER_INVOKE).toBe(16);
  });

  it("refuses confirm of an r2_key this invoke was not given", async () => {
    const { call } = await open();
    const { r2_key } = (await call(
      "host/uploadFile",
      { mode: "negotiate", filename: "a", mime_type: "image/png" },
      "inv-2",
    )) as { r2_key: string };
    await expectRpcError(
      call("host/uploadFile", { mode: "confirm", r2_key }),
      -32203,
      "UPLOAD_INVALID_REQUEST",
      "r2_key does not belong to this invoke",
    );
  });

  it("refuses inline payloads over 8 MiB and files over the per-file limit with -32204", async () => {
    const { call } = await open({ upload: { maxFileBytes: 10 } });
    await expectRpcError(
      call("host/uploadFile", {
        mode: "inline",
        filename: "big",
        mime_type: "text/plain",
        content_b64: b64(UPLOAD_INLINE_MAX_BYTES + 1),
      }),
      -32204,
      "UPLOAD_TOO_LARGE",
      /inline limit; use mode "negotiate"/,
    );
    await expectRpcError(
      call("host/uploadFile", {
        mode: "inline",
        filename: "a",
        mime_type: "text/plain",
        content_b64: b64(11),
      }),
      -32204,
      "UPLOAD_TOO_LARGE",
      /10-byte per-file limit/,
    );
    await expectRpcError(
      call("host/uploadFile", {
        mode: "negotiate",
        filename: "a",
        mime_type: "text/plain",
        size_bytes: 11,
      }),
      -32204,
      "UPLOAD_TOO_LARGE",
    );
  });

  it("refuses uploads past the per-invoke total bytes and releases failed reservations", async () => {
    let fail = true;
    const { call } = await open({ upload: { maxTotalBytes: 10 } }, (c) => {
      if (c.service === "upload" && fail) throw new Error("bucket down");
      return undefined;
    });
    const six = { mode: "inline", filename: "a", mime_type: "text/plain", content_b64: b64(6) };
    await expectRpcError(
      call("host/uploadFile", six),
      -32207,
      "UPLOAD_STORAGE_ERROR",
      "bucket down",
    );
    fail = false;
    await call("host/uploadFile", six);
    await expectRpcError(call("host/uploadFile", six), -32204, "UPLOAD_TOO_LARGE", /6 of 10 bytes/);
  });

  it("settles confirmed sizes against the per-invoke total", async () => {
    let next = 0;
    const { call } = await open({ upload: { maxTotalBytes: 10 } }, (c) => {
      if (c.method === "negotiate") {
        return {
          r2_key: `key-${next++}`,
          put_url: "https://put",
          headers: {},
          expires_at: "2099-01-01T00:00:00Z",
          expires_in: 300,
          _meta: { mode: "presigned-put" },
        };
      }
      if (c.method === "confirm") {
        return {
          r2_key: c.params["r2_key"],
          download_url: "u",
          url: "u",
          mime_type: "image/png",
          size_bytes: 6,
          bytes: 6,
          expires_at: "2099-01-01T00:00:00Z",
          expires_in: 1800,
          _meta: { mode: "confirm" },
        };
      }
      return undefined;
    });
    const negotiate = async () =>
      (
        (await call("host/uploadFile", {
          mode: "negotiate",
          filename: "f",
          mime_type: "image/png",
        })) as {
          r2_key: string;
        }
      ).r2_key;
    const first = await negotiate();
    const second = await negotiate();
    await call("host/uploadFile", { mode: "confirm", r2_key: first });
    await expectRpcError(
      call("host/uploadFile", { mode: "confirm", r2_key: second }),
      -32204,
      "UPLOAD_TOO_LARGE",
      /6 of 10 bytes/,
    );
    // The refused confirm did not count as a file or bytes: 4 bytes still fit.
    await call("host/uploadFile", {
      mode: "inline",
      filename: "small",
      mime_type: "text/plain",
      content_b64: b64(4),
    });
  });

  it("refuses purposes outside the grant with -32206 and defaults to user_artifact", async () => {
    const { call, services } = await open({ upload: { allowedPurposes: ["image_input"] } });
    await expectRpcError(
      call("host/uploadFile", {
        mode: "inline",
        filename: "a",
        mime_type: "text/plain",
        content_b64: b64(1),
      }),
      -32206,
      "UPLOAD_PURPOSE_REJECTED",
      /'user_artifact' is not allowed; allowed purposes: image_input/,
    );
    await expectRpcError(
      call("host/uploadFile", {
        mode: "inline",
        filename: "a",
        mime_type: "text/plain",
        content_b64: b64(1),
        purpose: "anything",
      }),
      -32206,
      "UPLOAD_PURPOSE_REJECTED",
    );
    await call("host/uploadFile", {
      mode: "inline",
      filename: "a",
      mime_type: "image/png",
      content_b64: b64(1),
      purpose: "image_input",
    });
    expect(services.calls).toHaveLength(1);
  });
});

describe("image budget", () => {
  it("refuses n over the host cap of 8 with -32106 and data.hostCap", async () => {
    const { call } = await open({ image: { maxPerCallGenerate: 100 } });
    const error = await expectRpcError(
      call("image/generate", { prompt: "p", n: 9 }),
      -32106,
      "IMAGE_MAX_IMAGES_EXCEEDED",
    );
    expect(error.data).toMatchObject({ hostCap: 8 });
  });

  it("refuses n over the per-call grant: 4 for generate and 1 for edit by default", async () => {
    const { call } = await open();
    await expectRpcError(
      call("image/generate", { prompt: "p", n: 5 }),
      -32106,
      "IMAGE_MAX_IMAGES_EXCEEDED",
      /granted 4/,
    );
    await expectRpcError(
      call("image/edit", { prompt: "p", n: 2, image_url: "https://x" }),
      -32106,
      "IMAGE_MAX_IMAGES_EXCEEDED",
      /granted 1/,
    );
  });

  it(`shares ${IMAGE_MAX_IMAGES_PER_INVOKE} images per invoke between generate and edit`, async () => {
    const { call } = await open();
    await call("image/generate", { prompt: "p", n: 3 });
    await call("image/edit", { prompt: "p", image_url: "https://x" });
    const error = await expectRpcError(
      call("image/generate", { prompt: "p" }),
      -32106,
      "IMAGE_MAX_IMAGES_EXCEEDED",
    );
    expect(error.data).toMatchObject({ images: 4, maxImages: 4 });
    await call("image/generate", { prompt: "p", n: 4 }, "inv-2");
  });
});

describe("agent frames", () => {
  it(`refuses a run with more than ${AGENT_MAX_FRAMES_PER_RUN} frames with -32047`, async () => {
    let frames = AGENT_MAX_FRAMES_PER_RUN;
    const { call } = await open(ALL, (c) =>
      c.method === "sessionRun"
        ? {
            run_id: "run_1",
            frames: Array.from({ length: frames }, () => ({ event: "delta", text: "x" })),
            final: "x",
          }
        : undefined,
    );
    const run = { app_session_uuid: "aps_1", content: "go" };
    await call("agent/session.run", run);
    frames += 1;
    await expectRpcError(
      call("agent/session.run", run),
      -32047,
      "AGENT_RUN_TOO_LARGE",
      /4097 frames/,
    );
  });
});

describe("limits option", () => {
  it("lets a deployment lower the host caps", async () => {
    const { call } = await open(ALL, undefined, { limits: { samplingMaxCallsPerInvoke: 1 } });
    await call("sampling/createMessage", SAMPLE);
    await expectRpcError(
      call("sampling/createMessage", SAMPLE),
      -32006,
      "SAMPLING_MAX_CALLS_EXCEEDED",
    );
  });
});
