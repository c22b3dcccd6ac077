// The router behind a real plugin process: reverse requests travel over stdio through
// PluginProcess, get correlated, gated and answered, and the plugin sees the errors as they
// would reach it from the platform.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { PluginProcess } from "../../src/process/plugin-process.js";
import type { InvokeOutcome } from "../../src/process/invoke.js";
import type { RouterProgressEvent } from "../../src/router/progress.js";
import { ReverseRpcRouter } from "../../src/router/reverse-rpc-router.js";
import { createStaticGrantPolicy } from "../../src/services/grants.js";
import { createRecordingServices } from "../../src/services/recording-services.js";
import { createDevTokenIssuer } from "../../src/tokens/dev-token-issuer.js";
import { TOKEN_AUDIENCES } from "../../src/tokens/token-issuer.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/reverse-plugin.mjs", import.meta.url));
const open: PluginProcess[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

interface Answer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: { errorCode?: string } };
}

interface PluginData {
  invokeId: string;
  tokens: string[];
  results: Answer[];
}

async function start(hostCaps: string[]) {
  const services = createRecordingServices();
  const progress: RouterProgressEvent[] = [];
  const tokens = await createDevTokenIssuer();
  const router = new ReverseRpcRouter({
    services,
    grants: createStaticGrantPolicy({ sampling: {}, storage: {}, image: {} }),
    tokens,
    onProgress: (event) => progress.push(event),
  });
  const plugin = new PluginProcess({
    spec: {
      toolId: "reverse-plugin",
      type: "node",
      dir: fileURLToPath(new URL("./fixtures/", import.meta.url)),
      command: [process.execPath, FIXTURE],
      cwd: fileURLToPath(new URL("./fixtures/", import.meta.url)),
      env: { HOST_CAPS: hostCaps.join(",") },
      binaryColdStart: false,
      source: "test",
      warnings: [],
    },
    userId: "user-1",
    router,
    timeouts: { initializeMs: 2_000, describeMs: 2_000 },
  });
  open.push(plugin);
  return { plugin, services, progress, tokens };
}

function data(outcome: InvokeOutcome): PluginData {
  if (!outcome.ok) throw new Error(`invoke failed: ${JSON.stringify(outcome)}`);
  return outcome.data as PluginData;
}

const sample = {
  method: "sampling/createMessage",
  params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], max_tokens: 16 },
};

describe("ReverseRpcRouter behind a real plugin process", () => {
  it("serves reverse calls during an invoke, with tokens in the invoke context", async () => {
    const { plugin, services, progress, tokens } = await start(["llm.sample", "aps.kv"]);
    const outcome = await plugin.invoke("reverse", {
      calls: [
        sample,
        { method: "storage/set", params: { key: "k", value: 1 }, correlate: "metadata" },
        { progress: "completed" },
      ],
    });
    const result = data(outcome);
    expect(result.tokens).toEqual(["sampling_token", "storage_token"]);
    expect(result.results.map((r) => r.error)).toEqual([undefined, undefined]);
    expect(result.results[0]?.result).toMatchObject({
      role: "assistant",
      content: { type: "text" },
    });
    expect(services.calls.map((c) => [c.method, c.ctx.invokeId])).toEqual([
      ["createMessage", result.invokeId],
      ["set", result.invokeId],
    ]);
    expect(services.calls[1]?.params["scope"]).toBe("tool");
    const token = services.calls[0]?.ctx.token ?? "";
    await expect(
      tokens.verify(token, TOKEN_AUDIENCES.sampling, {
        userId: "user-1",
        toolId: "reverse-plugin",
        invokeId: result.invokeId,
      }),
    ).resolves.toMatchObject({ invokeId: result.invokeId });
    expect(progress).toMatchObject([{ invokeId: result.invokeId, type: "progress" }]);
  });

  it("answers a capability the plugin did not declare with a clear error", async () => {
    const { plugin, services } = await start(["llm.sample"]);
    const result = data(
      await plugin.invoke("reverse", {
        calls: [{ method: "image/generate", params: { prompt: "cat" } }],
      }),
    );
    expect(result.tokens).toEqual(["sampling_token"]);
    expect(result.results[0]?.error).toEqual({
      code: -32107,
      message:
        "executa reverse-plugin did not declare host_capabilities['llm.image']; add \"llm.image\" to host_capabilities in its describe manifest to use image/generate",
      data: { errorCode: "IMAGE_NOT_NEGOTIATED" },
    });
    expect(services.calls).toHaveLength(0);
  });

  it("refuses a foreign invoke id, and a missing one while two invokes are in flight", async () => {
    const { plugin, services } = await start(["llm.sample", "aps.kv"]);
    const [first, second] = await Promise.all([
      plugin.invoke("reverse", {
        holdUntilInvokes: 2,
        calls: [
          { ...sample, correlate: "none" },
          { ...sample, correlate: "foreign" },
        ],
      }),
      plugin.invoke("reverse", {
        holdUntilInvokes: 2,
        calls: [{ method: "storage/get", params: { key: "k" } }],
      }),
    ]);
    const a = data(first);
    const b = data(second);
    expect(a.results.map((r) => r.error?.data?.errorCode)).toEqual([
      "MISSING_INVOKE_CONTEXT",
      "UNKNOWN_INVOKE_CONTEXT",
    ]);
    expect(a.results.map((r) => r.error?.code)).toEqual([-32602, -32602]);
    expect(a.results[0]?.error?.message).toMatch(/send params.context.invoke_id/);
    expect(b.results[0]?.result).toEqual({ value: null, exists: false, etag: null });
    expect(services.calls.map((c) => c.ctx.invokeId)).toEqual([b.invokeId]);
  });
});
