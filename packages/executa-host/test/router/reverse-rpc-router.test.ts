import { RpcError } from "@anna-ai/jsonrpc";
import { describe, expect, it } from "vitest";
import { ReverseRpcRouter } from "../../src/router/reverse-rpc-router.js";
import { createAllowAllGrantPolicy, createStaticGrantPolicy } from "../../src/services/grants.js";
import { createRecordingServices } from "../../src/services/recording-services.js";
import { catalogError } from "../../src/services/service-error.js";
import { REVERSE_METHOD_REQUIREMENTS } from "@anna-ai/app-schema";
import { SAMPLING_ERRORS } from "@anna-ai/app-schema/errors";
import { FAMILY_CODES, REVERSE_METHODS } from "../../src/router/method-table.js";
import {
  NEVER,
  SAMPLE,
  ctx,
  expectRpcError,
  harness,
  invokeStart,
  sessionInfo,
} from "./helpers.js";

describe("method lookup", () => {
  it("answers an unknown method with -32601 naming it", async () => {
    const { session } = harness();
    await session.beginInvoke(invokeStart("inv-1"));
    await expectRpcError(
      session.handleRequest("llm/teleport", {}, NEVER),
      -32601,
      "METHOD_NOT_FOUND",
      "Method not found: llm/teleport",
    );
  });

  it("does not treat Object.prototype names as methods", async () => {
    const { session } = harness();
    await expectRpcError(
      session.handleRequest("constructor", {}, NEVER),
      -32601,
      "METHOD_NOT_FOUND",
    );
  });
});

describe("invoke correlation (T12)", () => {
  it("routes to the invoke named in context.invoke_id", async () => {
    const { session, services } = harness();
    await session.beginInvoke(invokeStart("inv-1"));
    await session.beginInvoke(invokeStart("inv-2"));
    await session.handleRequest("storage/get", { key: "k", ...ctx("inv-2") }, NEVER);
    expect(services.calls[0]?.ctx.invokeId).toBe("inv-2");
  });

  it("falls back to metadata.executa_invoke_id, then metadata.invoke_id", async () => {
    const { session, services } = harness();
    await session.beginInvoke(invokeStart("inv-1"));
    await session.beginInvoke(invokeStart("inv-2"));
    await session.handleRequest(
      "storage/get",
      { key: "k", metadata: { executa_invoke_id: "inv-2", tool: "do-it" } },
      NEVER,
    );
    await session.handleRequest(
      "storage/get",
      { key: "k", metadata: { invoke_id: "inv-1" } },
      NEVER,
    );
    expect(services.calls.map((c) => c.ctx.invokeId)).toEqual(["inv-2", "inv-1"]);
  });

  it("prefers context.invoke_id over metadata", async () => {
    const { session, services } = harness();
    await session.beginInvoke(invokeStart("inv-1"));
    await session.beginInvoke(invokeStart("inv-2"));
    await session.handleRequest(
      "storage/get",
      { key: "k", ...ctx("inv-1"), metadata: { executa_invoke_id: "inv-2" } },
      NEVER,
    );
    expect(services.calls[0]?.ctx.invokeId).toBe("inv-1");
  });

  it("treats an empty string as absent and uses the single active invoke", async () => {
    const { session, services } = harness();
    await session.beginInvoke(invokeStart("only"));
    await session.handleRequest(
      "storage/get",
      { key: "k", context: { invoke_id: "" }, metadata: { executa_invoke_id: "" } },
      NEVER,
    );
    expect(services.calls[0]?.ctx.invokeId).toBe("only");
  });

  it("refuses an unknown invoke id with UNKNOWN_INVOKE_CONTEXT", async () => {
    const { session, services } = harness();
    await session.beginInvoke(invokeStart("inv-1"));
    await expectRpcError(
      session.handleRequest("storage/get", { key: "k", ...ctx("foreign") }, NEVER),
      -32602,
      "UNKNOWN_INVOKE_CONTEXT",
      /foreign is not an active invoke of executa tool-a/,
    );
    expect(services.calls).toHaveLength(0);
  });

  it("refuses a finished invoke id with UNKNOWN_INVOKE_CONTEXT, even when another is active", async () => {
    const { session } = harness();
    await session.beginInvoke(invokeStart("inv-1"));
    await session.beginInvoke(invokeStart("inv-2"));
    session.endInvoke("inv-1");
    await expectRpcError(
      session.handleRequest("sampling/createMessage", { ...SAMPLE, ...ctx("inv-1") }, NEVER),
      -32602,
      "UNKNOWN_INVOKE_CONTEXT",
      /inv-1 has already finished/,
    );
  });

  it("refuses a call naming no invoke while several are active (never guesses)", async () => {
    const { session, services } = harness();
    await session.beginInvoke(invokeStart("inv-1"));
    await session.beginInvoke(invokeStart("inv-2"));
    await expectRpcError(
      session.handleRequest("sampling/createMessage", SAMPLE, NEVER),
      -32602,
      "MISSING_INVOKE_CONTEXT",
      /2 invokes are in flight/,
    );
    expect(services.calls).toHaveLength(0);
  });

  it("answers a call outside any invoke with the family's outside-invoke code", async () => {
    const { session } = harness();
    await expectRpcError(
      session.handleRequest("host/uploadFile", { mode: "confirm", r2_key: "k" }, NEVER),
      -32210,
      "UPLOAD_NOT_NEGOTIATED",
      /outside any invoke/,
    );
    await expectRpcError(
      session.handleRequest("sampling/createMessage", SAMPLE, NEVER),
      -32008,
      "SAMPLING_NOT_NEGOTIATED",
    );
    await expectRpcError(
      session.handleRequest("storage/get", { key: "k" }, NEVER),
      -32021,
      "STORAGE_NOT_GRANTED",
    );
  });

  it("refuses everything after dispose", async () => {
    const { session } = harness();
    await session.beginInvoke(invokeStart("inv-1"));
    session.dispose();
    await expectRpcError(
      session.handleRequest("storage/get", { key: "k", ...ctx("inv-1") }, NEVER),
      -32602,
      "UNKNOWN_INVOKE_CONTEXT",
    );
    await expect(session.beginInvoke(invokeStart("inv-2"))).rejects.toThrow(/disposed/);
  });

  it("refuses to begin an invoke id that is already active", async () => {
    const { session } = harness();
    await session.beginInvoke(invokeStart("inv-1"));
    await expect(session.beginInvoke(invokeStart("inv-1"))).rejects.toThrow(/already active/);
  });
});

describe("gates (H13)", () => {
  it("gate 1: a v1.1 plugin gets the family's NOT_NEGOTIATED code", async () => {
    const { session } = harness({}, { protocolVersion: "1.1" });
    await session.beginInvoke(invokeStart("inv-1"));
    await expectRpcError(
      session.handleRequest("sampling/createMessage", SAMPLE, NEVER),
      -32008,
      "SAMPLING_NOT_NEGOTIATED",
      /did not negotiate protocol v2/,
    );
    await expectRpcError(
      session.handleRequest("image/generate", { prompt: "p" }, NEVER),
      -32107,
      "IMAGE_NOT_NEGOTIATED",
    );
    await expectRpcError(
      session.handleRequest("embeddings/create", { input: "x" }, NEVER),
      -32507,
      "EMBED_NOT_NEGOTIATED",
    );
    await expectRpcError(
      session.handleRequest("agent/session.create", { kind: "agent" }, NEVER),
      -32041,
      "AGENT_NOT_GRANTED",
    );
  });

  it("gate 2: an undeclared capability names the missing host_capabilities entry", async () => {
    const { session, services } = harness({}, { hostCapabilities: ["aps.kv"] });
    await session.beginInvoke(invokeStart("inv-1"));
    await expectRpcError(
      session.handleRequest("sampling/createMessage", SAMPLE, NEVER),
      -32008,
      "SAMPLING_NOT_NEGOTIATED",
      "executa tool-a did not declare host_capabilities['llm.sample']; add \"llm.sample\" to host_capabilities in its describe manifest to use sampling/createMessage",
    );
    await expectRpcError(
      session.handleRequest("files/list", {}, NEVER),
      -32021,
      "STORAGE_NOT_GRANTED",
      /host_capabilities\['aps.files'\]/,
    );
    await expectRpcError(
      session.handleRequest("host/uploadFile", { mode: "confirm", r2_key: "k" }, NEVER),
      -32210,
      "UPLOAD_NOT_NEGOTIATED",
      /host_capabilities\['host.upload'\]/,
    );
    await expectRpcError(
      session.handleRequest("agent/session.create", { kind: "agent" }, NEVER),
      -32041,
      "AGENT_NOT_GRANTED",
      /host_capabilities\['llm.agent.auto'\]/,
    );
    await expectRpcError(
      session.handleRequest("image/edit", { prompt: "p", image_url: "https://x" }, NEVER),
      -32107,
      "IMAGE_NOT_NEGOTIATED",
      /host_capabilities\['llm.image.edit'\]/,
    );
    await session.handleRequest("storage/get", { key: "k" }, NEVER);
    expect(services.calls.map((c) => c.method)).toEqual(["get"]);
  });

  it("gate 2: agent/complete is unlocked by llm.sample, agent sessions are not", async () => {
    const { session, services } = harness({}, { hostCapabilities: ["llm.sample"] });
    await session.beginInvoke(invokeStart("inv-1"));
    await session.handleRequest("agent/complete", { messages: SAMPLE.messages }, NEVER);
    expect(services.callsTo("agent", "complete")).toHaveLength(1);
    await expectRpcError(
      session.handleRequest(
        "agent/session.run",
        { app_session_uuid: "aps_x", content: "hi" },
        NEVER,
      ),
      -32041,
      "AGENT_NOT_GRANTED",
    );
  });

  it("serves a v2 plugin that announced other capabilities unless strict mode is on", async () => {
    const info = { pluginCapabilities: { sampling: {} } };
    const warnings: unknown[] = [];
    const logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: (_message: string, fields?: Record<string, unknown>) => warnings.push(fields),
      error: () => undefined,
    };
    const liberal = harness({ logger }, info);
    await liberal.session.beginInvoke(invokeStart("inv-1"));
    expect(warnings).toEqual([]);
    await liberal.session.handleRequest("storage/get", { key: "k" }, NEVER);
    await liberal.session.handleRequest("storage/get", { key: "k" }, NEVER);
    await liberal.session.handleRequest("sampling/createMessage", SAMPLE, NEVER);
    expect(liberal.services.calls).toHaveLength(3);
    expect(warnings).toEqual([{ toolId: "tool-a", method: "storage/get", capability: "storage" }]);

    const strict = harness({ strictPluginCapabilities: true }, info);
    await strict.session.beginInvoke(invokeStart("inv-1"));
    await expectRpcError(
      strict.session.handleRequest("storage/get", { key: "k" }, NEVER),
      -32021,
      "STORAGE_NOT_GRANTED",
      /did not announce the 'storage' client capability/,
    );
    await strict.session.handleRequest("sampling/createMessage", SAMPLE, NEVER);
  });

  it("accepts embed, embeddings or sampling as the embeddings client capability", async () => {
    for (const key of ["embed", "embeddings", "sampling"]) {
      const { session, services } = harness(
        { strictPluginCapabilities: true },
        { pluginCapabilities: { [key]: {} } },
      );
      await session.beginInvoke(invokeStart("inv-1"));
      await session.handleRequest("embeddings/create", { input: "x" }, NEVER);
      expect(services.callsTo("embeddings")).toHaveLength(1);
    }
  });

  it("gate 3: a missing user grant gets the family's NOT_GRANTED code", async () => {
    const services = createRecordingServices();
    const router = new ReverseRpcRouter({
      services,
      grants: createStaticGrantPolicy({ storage: {} }),
    });
    const session = router.attach(sessionInfo());
    await session.beginInvoke(invokeStart("inv-1"));
    const cases: [string, unknown, number, string][] = [
      ["sampling/createMessage", SAMPLE, -32001, "SAMPLING_NOT_GRANTED"],
      ["files/list", {}, -32021, "STORAGE_NOT_GRANTED"],
      ["agent/session.create", { kind: "agent" }, -32041, "AGENT_NOT_GRANTED"],
      ["image/generate", { prompt: "p" }, -32101, "IMAGE_NOT_GRANTED"],
      ["host/uploadFile", { mode: "confirm", r2_key: "k" }, -32201, "UPLOAD_NOT_GRANTED"],
      ["embeddings/create", { input: "x" }, -32501, "EMBED_NOT_GRANTED"],
    ];
    for (const [method, params, code, errorCode] of cases) {
      await expectRpcError(
        session.handleRequest(method, params, NEVER),
        code,
        errorCode,
        /has not granted/,
      );
    }
    await session.handleRequest("storage/get", { key: "k" }, NEVER);
    expect(services.calls).toHaveLength(1);
  });

  it("gate 3: image editing needs its own opt-in", async () => {
    const services = createRecordingServices();
    const router = new ReverseRpcRouter({
      services,
      grants: createStaticGrantPolicy({ image: {} }),
    });
    const session = router.attach(sessionInfo());
    await session.beginInvoke(invokeStart("inv-1"));
    await session.handleRequest("image/generate", { prompt: "p" }, NEVER);
    await expectRpcError(
      session.handleRequest("image/edit", { prompt: "p", image_url: "https://x" }, NEVER),
      -32101,
      "IMAGE_NOT_GRANTED",
      /image editing/,
    );
  });

  it("asks the grant policy once per invoke and family, with user and tool", async () => {
    const asked: string[] = [];
    const router = new ReverseRpcRouter({
      services: createRecordingServices(),
      grants: {
        isGranted: async (userId, toolId, family) => {
          asked.push(`${userId}/${toolId}/${family}`);
          await Promise.resolve();
          return family === "sampling" ? {} : undefined;
        },
      },
    });
    const session = router.attach(sessionInfo({ hostCapabilities: ["llm.sample"] }));
    await session.beginInvoke(invokeStart("inv-1"));
    await session.handleRequest("sampling/createMessage", SAMPLE, NEVER);
    await session.handleRequest("sampling/createMessage", SAMPLE, NEVER);
    expect(asked).toEqual(["user-1/tool-a/sampling"]);
  });

  it("treats a family without a service as unavailable on this host", async () => {
    const router = new ReverseRpcRouter({
      services: { storage: createRecordingServices().storage },
      grants: createStaticGrantPolicy({ storage: {}, sampling: {} }),
    });
    const session = router.attach(sessionInfo());
    await session.beginInvoke(invokeStart("inv-1"));
    await expectRpcError(
      session.handleRequest("sampling/createMessage", SAMPLE, NEVER),
      -32008,
      "SAMPLING_NOT_NEGOTIATED",
      "sampling/createMessage is not available on this host",
    );
  });
});

describe("params (step 4)", () => {
  it("rejects bad params with the family's INVALID_REQUEST code", async () => {
    const { session, services } = harness();
    await session.beginInvoke(invokeStart("inv-1"));
    const cases: [string, unknown, number, string][] = [
      [
        "sampling/createMessage",
        { messages: [], maxTokens: 10 },
        -32004,
        "SAMPLING_INVALID_REQUEST",
      ],
      ["sampling/createMessage", { messages: SAMPLE.messages }, -32004, "SAMPLING_INVALID_REQUEST"],
      [
        "sampling/createMessage",
        { ...SAMPLE, includeContext: "thisServer" },
        -32004,
        "SAMPLING_INVALID_REQUEST",
      ],
      ["storage/set", { key: "k" }, -32028, "STORAGE_INVALID_REQUEST"],
      ["storage/get", { key: "" }, -32028, "STORAGE_INVALID_REQUEST"],
      ["files/download_url", {}, -32028, "STORAGE_INVALID_REQUEST"],
      ["image/generate", { prompt: "  " }, -32104, "IMAGE_INVALID_REQUEST"],
      ["image/generate", { prompt: "p", n: 0 }, -32104, "IMAGE_INVALID_REQUEST"],
      ["host/uploadFile", { mode: "teleport" }, -32203, "UPLOAD_INVALID_REQUEST"],
      [
        "host/uploadFile",
        { mode: "inline", filename: "a", mime_type: "text/plain" },
        -32203,
        "UPLOAD_INVALID_REQUEST",
      ],
      ["embeddings/create", { input: [] }, -32504, "EMBED_INVALID_REQUEST"],
      ["embeddings/create", { input: ["ok", 3] }, -32504, "EMBED_INVALID_REQUEST"],
      ["storage/get", "not-an-object", -32028, "STORAGE_INVALID_REQUEST"],
    ];
    for (const [method, params, code, errorCode] of cases) {
      await expectRpcError(session.handleRequest(method, params, NEVER), code, errorCode);
    }
    expect(services.calls).toHaveLength(0);
  });

  it("accepts snake_case sampling params and hands the service camelCase", async () => {
    const { session, services } = harness();
    await session.beginInvoke(invokeStart("inv-1"));
    await session.handleRequest(
      "sampling/createMessage",
      {
        messages: SAMPLE.messages,
        max_tokens: 50,
        system_prompt: "be brief",
        stop_sequences: ["\n"],
        _clientTimeoutS: 90,
      },
      NEVER,
    );
    const params = services.calls[0]?.params;
    expect(params).toMatchObject({
      maxTokens: 50,
      systemPrompt: "be brief",
      stopSequences: ["\n"],
      clientTimeoutS: 90,
      includeContext: "none",
      onUnsupported: "error",
    });
    expect(params).not.toHaveProperty("max_tokens");
  });

  it("refuses maxTokens over 8192 per call with -32004", async () => {
    const { session } = harness();
    await session.beginInvoke(invokeStart("inv-1"));
    await expectRpcError(
      session.handleRequest("sampling/createMessage", { ...SAMPLE, maxTokens: 8193 }, NEVER),
      -32004,
      "SAMPLING_INVALID_REQUEST",
      /8193 is over the per-call limit of 8192/,
    );
  });

  it("wraps a bare embeddings input and caps inputs and characters", async () => {
    const { session, services } = harness();
    await session.beginInvoke(invokeStart("inv-1"));
    await session.handleRequest("embeddings/create", { input: "hello" }, NEVER);
    expect(services.calls[0]?.params["input"]).toEqual(["hello"]);
    await session.handleRequest("embeddings/create", { input: Array(128).fill("x") }, NEVER);
    await expectRpcError(
      session.handleRequest("embeddings/create", { input: Array(129).fill("x") }, NEVER),
      -32504,
      "EMBED_INVALID_REQUEST",
      /at most 128/,
    );
    await expectRpcError(
      session.handleRequest("embeddings/create", { input: ["x".repeat(64_001)] }, NEVER),
      -32504,
      "EMBED_INVALID_REQUEST",
      /64000/,
    );
  });
});

describe("dispatch (step 7)", () => {
  it("gives the service a full context with the family's token", async () => {
    const tokens = await import("../../src/tokens/dev-token-issuer.js").then((m) =>
      m.createDevTokenIssuer(),
    );
    const { session, services } = harness({ tokens });
    const start = invokeStart("inv-1", { tool: "summarize", deadlineMs: 123 });
    const context = await session.beginInvoke(start);
    await session.handleRequest("storage/get", { key: "k" }, NEVER);
    const call = services.calls[0];
    expect(call?.ctx).toMatchObject({
      userId: "user-1",
      toolId: "tool-a",
      invokeId: "inv-1",
      pluginName: "plugin-a",
      tool: "summarize",
      deadlineMs: 123,
      grant: {},
      token: context["storage_token"],
    });
    expect(call?.ctx.signal.aborted).toBe(false);
    session.endInvoke("inv-1");
    expect(call?.ctx.signal.aborted).toBe(true);
  });

  it("passes a service's catalogued RpcError through unchanged", async () => {
    const router = new ReverseRpcRouter({
      services: createRecordingServices({
        respond: () => {
          throw catalogError(SAMPLING_ERRORS.USER_DENIED, "the user said no");
        },
      }),
      grants: createStaticGrantPolicy({ sampling: {} }),
    });
    const session = router.attach(sessionInfo());
    await session.beginInvoke(invokeStart("inv-1"));
    await expectRpcError(
      session.handleRequest("sampling/createMessage", SAMPLE, NEVER),
      -32009,
      "SAMPLING_USER_DENIED",
      "the user said no",
    );
  });

  it("turns any other service failure into the family's upstream code without a stack", async () => {
    const services = createRecordingServices({
      respond: () => {
        throw new TypeError("socket hang up");
      },
    });
    const router = new ReverseRpcRouter({
      services,
      grants: createStaticGrantPolicy({
        storage: {},
        image: {},
        upload: {},
        sampling: {},
        agent: {},
        embeddings: {},
      }),
    });
    const session = router.attach(sessionInfo());
    await session.beginInvoke(invokeStart("inv-1"));
    const cases: [string, unknown, number, string][] = [
      ["sampling/createMessage", SAMPLE, -32003, "SAMPLING_PROVIDER_ERROR"],
      ["storage/get", { key: "k" }, -32029, "STORAGE_UPSTREAM_ERROR"],
      ["agent/session.create", { kind: "agent" }, -32046, "AGENT_PROVIDER_ERROR"],
      ["image/generate", { prompt: "p" }, -32103, "IMAGE_PROVIDER_ERROR"],
      [
        "host/uploadFile",
        { mode: "negotiate", filename: "a", mime_type: "text/plain" },
        -32207,
        "UPLOAD_STORAGE_ERROR",
      ],
      ["embeddings/create", { input: "x" }, -32503, "EMBED_PROVIDER_ERROR"],
    ];
    for (const [method, params, code, errorCode] of cases) {
      const error = await expectRpcError(
        session.handleRequest(method, params, NEVER),
        code,
        errorCode,
        "socket hang up",
      );
      expect(error.cause).toBeInstanceOf(TypeError);
      expect(JSON.stringify(error.toJSON())).not.toContain("at ");
    }
  });

  it("routes host/uploadFile to the service method of its mode", async () => {
    const { session, services } = harness();
    await session.beginInvoke(invokeStart("inv-1"));
    const negotiated = (await session.handleRequest(
      "host/uploadFile",
      { mode: "negotiate", filename: "a.png", mime_type: "image/png", size_bytes: 10 },
      NEVER,
    )) as { r2_key: string };
    await session.handleRequest(
      "host/uploadFile",
      { mode: "confirm", r2_key: negotiated.r2_key },
      NEVER,
    );
    await session.handleRequest(
      "host/uploadFile",
      { mode: "inline", filename: "a.txt", mime_type: "text/plain", content_b64: "aGk=" },
      NEVER,
    );
    expect(services.calls.map((c) => c.method)).toEqual(["negotiate", "confirm", "inline"]);
    expect(services.calls[0]?.params).toMatchObject({
      expected_bytes: 10,
      purpose: "user_artifact",
    });
  });

  it("is an RpcError the peer can serialise", async () => {
    const { session } = harness();
    const error = await session.handleRequest("nope", {}, NEVER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).toJSON()).toEqual({
      code: -32601,
      message: "Method not found: nope",
      data: { errorCode: "METHOD_NOT_FOUND" },
    });
  });
});

describe("method table", () => {
  it("answers web/* without a web service with the web gate code, naming the host", async () => {
    const { web: _web, ...withoutWeb } = createRecordingServices();
    const bare = new ReverseRpcRouter({
      services: withoutWeb,
      grants: createAllowAllGrantPolicy(),
    }).attach(sessionInfo({ hostCapabilities: ["web.search"] }));
    await bare.beginInvoke(invokeStart("inv-1"));
    const error = await bare
      .handleRequest("web/search", { query: "x" }, NEVER)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).errorCode).toBe(
      REVERSE_METHOD_REQUIREMENTS["web/search"].notNegotiatedError.errorCode,
    );
    expect((error as RpcError).message).toBe("web/search is not available on this host");
  });

  it("serves every documented method of the nine families, with the catalog's gate codes", () => {
    for (const [method, requirement] of Object.entries(REVERSE_METHOD_REQUIREMENTS)) {
      const spec = REVERSE_METHODS.get(method);
      expect(spec, method).toBeDefined();
      if (!spec) continue;
      expect(FAMILY_CODES[spec.family].gate, method).toBe(requirement.notNegotiatedError);
      if (spec.grantFamily === spec.family) {
        expect(FAMILY_CODES[spec.family].notGranted, method).toBe(requirement.notGrantedError);
      }
    }
  });
});
