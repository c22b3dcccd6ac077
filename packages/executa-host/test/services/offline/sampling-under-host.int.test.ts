// End to end: real example plugins under ExecutaHost + ReverseRpcRouter with the offline
// sampling and embeddings services. The plugins' own code sends sampling/createMessage (plain
// and with a json_schema responseFormat) and embeddings/create; the test checks what reached them.
import { SAMPLING_ERRORS } from "@anna-ai/app-schema/errors";
import { needs } from "../../../../../tests/support/toolchains.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { ExecutaHost } from "../../../src/host/executa-host.js";
import { ReverseRpcRouter } from "../../../src/router/reverse-rpc-router.js";
import { createAllowAllGrantPolicy } from "../../../src/services/grants.js";
import { createOfflineEmbeddingsService } from "../../../src/services/offline/embeddings-offline.js";
import { MockFixture } from "../../../src/services/offline/mock-fixture.js";
import type { OfflineSamplingOptions } from "../../../src/services/offline/sampling-offline.js";
import { createOfflineSamplingService } from "../../../src/services/offline/sampling-offline.js";
import { exampleSpecs, schemaIssues } from "./helpers.js";

const python = needs("python3");
const USER = "user-1";
const env: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: "1" };

const FIXTURE = MockFixture.parse(
  [
    "# py-studio's summarize prompt starts with 'Summarize:'",
    '{"ns":"llm","method":"complete","match":{"contentIncludes":["Summarize:","weather"]},"result":{"content":{"type":"text","text":"sunny all week"}}}',
  ].join("\n"),
  "sampling.jsonl",
);

// The schemas the plugins send (examples/executas/py-studio/studio_plugin.py, ts-kitchen-sink).
const EXTRACT_SCHEMA = {
  type: "object",
  properties: {
    title: { type: "string" },
    keywords: { type: "array", items: { type: "string" } },
  },
  required: ["title", "keywords"],
  additionalProperties: false,
};
const SUMMARY_SCHEMA = {
  type: "object",
  properties: {
    summary: { type: "string" },
    keywords: { type: "array", items: { type: "string" } },
    sentiment: { type: "string", enum: ["positive", "neutral", "negative"] },
  },
  required: ["summary", "keywords", "sentiment"],
};

describe("offline sampling and embeddings under ExecutaHost", () => {
  const specOf = exampleSpecs(["py-studio", "ts-kitchen-sink"], env);

  function start(name: string, sampling: OfflineSamplingOptions) {
    const spec = specOf(name);
    const router = new ReverseRpcRouter({
      services: {
        sampling: createOfflineSamplingService(sampling),
        embeddings: createOfflineEmbeddingsService({ mode: "synthetic" }),
      },
      grants: createAllowAllGrantPolicy(),
    });
    const host = new ExecutaHost({ env, router });
    onTestFinished(() => host.close());
    const plugin = host.register(spec, { userId: USER });
    return (tool: string, args: Record<string, unknown>) =>
      host.invoke(USER, plugin.toolId, tool, args);
  }

  it.skipIf(python.skip)(
    `py-studio gets the fixture answer, a downgraded schema answer and synthetic vectors${python.reason}`,
    async () => {
      const invoke = start("py-studio", {
        mode: "mock",
        fixture: FIXTURE,
        unsupportedFormat: true,
      });

      expect(await invoke("summarize", { text: "the weather this week" })).toMatchObject({
        ok: true,
        data: {
          summary: "sunny all week",
          model: "mock-default",
          usage: { totalTokens: expect.any(Number) },
        },
      });

      const extracted = await invoke("extract", { text: "Offline hosts" });
      expect(extracted).toMatchObject({
        ok: true,
        data: {
          structured: true,
          response_format: {
            requested: "json_schema",
            applied: "json_object",
            structuredValid: true,
            downgraded: true,
          },
        },
      });
      const fields = (extracted as { data: { fields: unknown } }).data.fields;
      expect(schemaIssues(EXTRACT_SCHEMA, fields)).toEqual([]);

      expect(await invoke("embed", { texts: ["a", "b"] })).toMatchObject({
        ok: true,
        data: { model: "anna-managed-v1", count: 2, dimensions: 1536 },
      });
    },
  );

  it("ts-kitchen-sink gets schema-valid JSON through its SDK client", async () => {
    const invoke = start("ts-kitchen-sink", { mode: "mock" });
    const result = await invoke("structured_summary", { text: "The host works offline." });
    expect(result).toMatchObject({
      ok: true,
      data: {
        meta: {
          provider: "mock",
          responseFormat: { requested: "json_schema", applied: "json_schema", downgraded: false },
        },
      },
    });
    const parsed = (result as { data: { parsed: unknown } }).data.parsed;
    expect(schemaIssues(SUMMARY_SCHEMA, parsed)).toEqual([]);
  });

  it.skipIf(python.skip)(
    `a plugin sees -32008 sampling_disabled when sampling is off${python.reason}`,
    async () => {
      const invoke = start("py-studio", { mode: "off" });
      const result = await invoke("summarize", { text: "anything" });
      // py-studio lets the reverse error propagate: the invoke fails with it unchanged.
      expect(result).toMatchObject({
        ok: false,
        kind: "rpc_error",
        error: {
          code: SAMPLING_ERRORS.NOT_NEGOTIATED.code,
          message: "sampling_disabled",
          data: { errorCode: "SAMPLING_NOT_NEGOTIATED" },
        },
      });
    },
  );
});
