import { describe, expect, it } from "vitest";
import {
  AgentCompleteParamsSchema,
  AgentSessionCreateParamsSchema,
  AgentSessionCreateResultSchema,
  AgentSessionHistoryResultSchema,
  AgentSessionRunParamsSchema,
  AgentSessionRunResultSchema,
  agentRunModelPreferences,
  normalizeAgentSessionCreate,
} from "../../src/executa/agent.js";

describe("agent/session.create", () => {
  it("accepts the SDK shape with kind and agent_submode (V2)", () => {
    const params = AgentSessionCreateParamsSchema.parse({
      kind: "agent",
      agent_submode: "auto",
      label: "Planner",
      system_prompt: "Plan.",
      ttl_seconds: 900,
    });
    expect(normalizeAgentSessionCreate(params)).toEqual({
      submode: "auto",
      label: "Planner",
      systemPrompt: "Plan.",
      ttlSeconds: 900,
    });
  });

  it("accepts the Reference shape and reads kind fixed as the fixed submode", () => {
    const reference = AgentSessionCreateParamsSchema.parse({
      agent_submode: "fixed",
      fixed_client_id: "c1",
      quota_caps: { inherit_host_tools: false, allowed_tools: ["web_search"] },
    });
    expect(normalizeAgentSessionCreate(reference)).toEqual({
      submode: "fixed",
      fixedClientId: "c1",
      quotaCaps: { inherit_host_tools: false, allowed_tools: ["web_search"] },
      ttlSeconds: 600,
    });
    const sdk = AgentSessionCreateParamsSchema.parse({ kind: "fixed", fixed_client_id: "c2" });
    expect(normalizeAgentSessionCreate(sdk).submode).toBe("fixed");
    expect(normalizeAgentSessionCreate(AgentSessionCreateParamsSchema.parse({})).submode).toBe(
      "auto",
    );
  });

  it("rejects an unknown submode", () => {
    expect(AgentSessionCreateParamsSchema.safeParse({ agent_submode: "manual" }).success).toBe(
      false,
    );
  });

  it("returns an aps_ uuid and a thread id", () => {
    const result = {
      app_session_uuid: "aps_0123",
      thread_id: "th_1",
      agent_submode: "auto",
      granted_tools: ["*"],
      expires_in: 600,
    };
    expect(AgentSessionCreateResultSchema.safeParse(result).success).toBe(true);
    expect(
      AgentSessionCreateResultSchema.safeParse({ ...result, app_session_uuid: "0123" }).success,
    ).toBe(false);
  });
});

describe("agent/session.run and friends", () => {
  it("prefers modelPreferences over the snake alias", () => {
    const params = AgentSessionRunParamsSchema.parse({
      app_session_uuid: "aps_1",
      content: "go",
      recursion_limit: 8,
      model_preferences: { hints: [{ name: "b" }] },
    });
    expect(agentRunModelPreferences(params)).toEqual({ hints: [{ name: "b" }] });
    expect(
      agentRunModelPreferences({ ...params, modelPreferences: { hints: [{ name: "a" }] } })
        ?.hints?.[0]?.name,
    ).toBe("a");
  });

  it("rejects a run without content", () => {
    expect(AgentSessionRunParamsSchema.safeParse({ app_session_uuid: "aps_1" }).success).toBe(
      false,
    );
  });

  it("describes buffered frames and the final text", () => {
    const result = {
      run_id: "run_0123456789abcdef",
      frames: [
        { event: "run_meta", seq: 0, stream_id: "s" },
        { event: "delta", seq: 1, text: "Hel" },
        { event: "tool_call", seq: 2, name: "web_search", args: { q: "x" }, call_id: "c1" },
        { event: "tool_result", seq: 3, call_id: "c1", ok: true, data: {} },
        { event: "final", seq: 4, text: "Hello", usage: { total_tokens: 9 } },
      ],
      final: "Hello",
    };
    expect(AgentSessionRunResultSchema.parse(result)).toEqual(result);
  });

  it("caps runs at 4096 frames", () => {
    const frames = Array.from({ length: 4097 }, () => ({ event: "delta", text: "x" }));
    expect(
      AgentSessionRunResultSchema.safeParse({ run_id: "r", frames, final: null }).success,
    ).toBe(false);
  });

  it("pages history with next_cursor", () => {
    expect(
      AgentSessionHistoryResultSchema.safeParse({
        messages: [{ role: "user", content: "hi" }],
        next_cursor: null,
      }).success,
    ).toBe(true);
  });

  it("accepts agent/complete with multimodal content and requires a message", () => {
    expect(
      AgentCompleteParamsSchema.safeParse({
        messages: [{ role: "user", content: [{ type: "image", url: "https://x" }] }],
        maxTokens: 10,
      }).success,
    ).toBe(true);
    expect(AgentCompleteParamsSchema.safeParse({ messages: [] }).success).toBe(false);
  });
});
