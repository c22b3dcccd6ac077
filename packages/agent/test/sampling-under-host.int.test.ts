// End to end: a real example plugin under ExecutaHost and the ReverseRpcRouter, whose
// sampling/createMessage is served by the gateway-backed service against the fake OpenAI server.
// The plugin's own SDK code sends the request; the test checks what reached the provider and
// what came back to the plugin.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  ExecutaHost,
  ReverseRpcRouter,
  createAllowAllGrantPolicy,
  detectLaunchSpec,
} from "@anna-ai/executa-host";
import { describe, expect, it, onTestFinished } from "vitest";
import { createGatewaySamplingService } from "../src/index.js";
import { harness } from "./helpers.js";

const PLUGIN_DIR = fileURLToPath(
  new URL("../../../examples/executas/ts-kitchen-sink", import.meta.url),
);
const USER = "u_alice";

describe("gateway-backed sampling under ExecutaHost", () => {
  it("answers a plugin's json_schema sampling call with the provider's structured output", async () => {
    const { fake, gateway, ledger } = await harness({
      provider: "openai",
      model: "gpt-test",
      openaiApi: "chat",
    });
    const router = new ReverseRpcRouter({
      services: { sampling: createGatewaySamplingService({ gateway }) },
      grants: createAllowAllGrantPolicy(),
    });
    const host = new ExecutaHost({ env: process.env, router });
    onTestFinished(() => host.close());
    const spec = await detectLaunchSpec(join(PLUGIN_DIR), { env: process.env });
    const plugin = host.register(spec, { userId: USER });

    const answer = { summary: "The host works.", keywords: ["host"], sentiment: "positive" };
    fake.enqueue({ text: JSON.stringify(answer), usage: { inputTokens: 50, outputTokens: 20 } });
    const result = await host.invoke(USER, plugin.toolId, "structured_summary", {
      text: "The host works.",
    });

    expect(result).toMatchObject({
      ok: true,
      data: {
        parsed: answer,
        meta: {
          provider: "openai",
          responseFormat: {
            requested: "json_schema",
            applied: "json_schema",
            structuredValid: true,
            downgraded: false,
          },
        },
      },
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.body).toMatchObject({
      model: "gpt-test",
      max_tokens: 512,
      response_format: { type: "json_schema", json_schema: { name: "summary_analysis" } },
    });
    expect(JSON.stringify(fake.requests[0]?.body)).toContain("The host works.");
    expect(ledger.list()).toEqual([
      expect.objectContaining({
        userId: USER,
        toolId: plugin.toolId,
        purpose: "sampling",
        totalTokens: 70,
      }),
    ]);
  });
});
