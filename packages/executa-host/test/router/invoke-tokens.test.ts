import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { ReverseRpcRouter } from "../../src/router/reverse-rpc-router.js";
import { createStaticGrantPolicy } from "../../src/services/grants.js";
import type { GrantByFamily } from "../../src/services/grants.js";
import { createRecordingServices } from "../../src/services/recording-services.js";
import { createDevTokenIssuer } from "../../src/tokens/dev-token-issuer.js";
import { TOKEN_AUDIENCES } from "../../src/tokens/token-issuer.js";
import type { PluginSessionInfo } from "../../src/router/contracts.js";
import { invokeStart, sessionInfo } from "./helpers.js";

async function begin(
  grants: Partial<GrantByFamily>,
  info: Partial<PluginSessionInfo> = {},
  app?: { appId: string; appScopeGranted: boolean },
) {
  const tokens = await createDevTokenIssuer();
  const router = new ReverseRpcRouter({
    services: createRecordingServices(),
    grants: createStaticGrantPolicy(grants),
    tokens,
  });
  const session = router.attach(sessionInfo(info));
  const context = await session.beginInvoke(invokeStart("inv-7", app ? { app } : {}));
  return { context, tokens };
}

const binding = { userId: "user-1", toolId: "tool-a", invokeId: "inv-7" };

describe("beginInvoke tokens (H15, T11)", () => {
  it("mints one token per family that passes all three gates, bound to the invoke", async () => {
    const { context, tokens } = await begin({
      sampling: { maxCalls: 3 },
      storage: {},
      image: {},
      upload: { maxFiles: 2, allowedPurposes: ["image_input", "bogus"] },
    });
    expect(Object.keys(context).sort()).toEqual([
      "image_token",
      "sampling_token",
      "storage_token",
      "upload_token",
    ]);
    const sampling = await tokens.verify(
      context["sampling_token"] ?? "",
      TOKEN_AUDIENCES.sampling,
      binding,
    );
    expect(sampling.claims).toMatchObject({ max_calls: 3, max_tokens_total: 32_000 });
    const storage = await tokens.verify(context["storage_token"] ?? "", "aps-storage", binding);
    expect(storage.claims).toMatchObject({ allowed_scopes: ["tool", "user"], max_calls: 200 });
    const image = await tokens.verify(context["image_token"] ?? "", TOKEN_AUDIENCES.image, binding);
    expect(image.claims).toMatchObject({
      max_per_call_generate: 4,
      max_per_call_edit: 1,
      max_images: 4,
    });
    const upload = await tokens.verify(context["upload_token"] ?? "", "executa-upload", binding);
    expect(upload.claims).toMatchObject({
      max_file_bytes: 20 * 1024 * 1024,
      max_total_bytes: 80 * 1024 * 1024,
      max_files: 2,
      allowed_purposes: ["image_input"],
    });
  });

  it("mints no token for a family that is not declared, not negotiated or not granted", async () => {
    expect((await begin({ storage: {} }, { hostCapabilities: ["llm.sample"] })).context).toEqual(
      {},
    );
    expect((await begin({ sampling: {} }, { protocolVersion: "1.1" })).context).toEqual({});
    expect(Object.keys((await begin({ sampling: {} })).context)).toEqual(["sampling_token"]);
  });

  it("mints the sampling token for embeddings or agent grants too", async () => {
    const embeddings = await begin({ embeddings: {} }, { hostCapabilities: ["llm.embed"] });
    expect(Object.keys(embeddings.context)).toEqual(["sampling_token"]);
    const agent = await begin({ agent: {} }, { hostCapabilities: ["llm.agent.auto"] });
    expect(Object.keys(agent.context)).toEqual(["sampling_token"]);
  });

  it("puts the app scope into allowed_scopes only for an app invoke that granted it", async () => {
    const { context } = await begin({ storage: {} }, {}, { appId: "a", appScopeGranted: true });
    expect(decodeJwt(context["storage_token"] ?? "").allowed_scopes).toEqual([
      "app",
      "tool",
      "user",
    ]);
  });

  it("returns no tokens when the router has no issuer", async () => {
    const router = new ReverseRpcRouter({
      services: createRecordingServices(),
      grants: createStaticGrantPolicy({ sampling: {} }),
    });
    expect(await router.attach(sessionInfo()).beginInvoke(invokeStart("inv-1"))).toEqual({});
  });

  it("answers synchronously, without a promise, when neither grants nor tokens need waiting for", () => {
    // PluginProcess skips the await for a plain value: one microtask turn less per invoke.
    const router = new ReverseRpcRouter({
      services: createRecordingServices(),
      grants: createStaticGrantPolicy({ sampling: {} }),
    });
    const begun = router.attach(sessionInfo()).beginInvoke(invokeStart("inv-1"));
    expect(begun).not.toBeInstanceOf(Promise);
    expect(begun).toEqual({});
  });

  it("never logs a token", async () => {
    const lines: string[] = [];
    const log = (message: string, fields?: Record<string, unknown>) =>
      lines.push(message + JSON.stringify(fields ?? {}));
    const tokens = await createDevTokenIssuer();
    const router = new ReverseRpcRouter({
      services: createRecordingServices({
        respond: () => {
          throw new Error("upstream down");
        },
      }),
      grants: createStaticGrantPolicy({ storage: {} }),
      tokens,
      logger: { debug: log, info: log, warn: log, error: log },
    });
    const session = router.attach(sessionInfo({ pluginCapabilities: { sampling: {} } }));
    const context = await session.beginInvoke(invokeStart("inv-1"));
    await session
      .handleRequest("storage/get", { key: "k" }, new AbortController().signal)
      .catch(() => undefined);
    session.handleNotification("executa/progress", { context: { invoke_id: "inv-1" } });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join("\n")).not.toContain(context["storage_token"] ?? "<none>");
  });
});
