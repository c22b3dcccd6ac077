import { describe, expect, it } from "vitest";
import { redactSecrets } from "../src/index.js";

describe("redactSecrets", () => {
  it("hides credentials per key and token-like values while keeping the structure", () => {
    const invoke = {
      jsonrpc: "2.0",
      id: 2,
      method: "invoke",
      params: {
        tool: "search",
        arguments: { query: "weather", max_tokens: 5, maxTokens: 7 },
        context: {
          invoke_id: "inv-1",
          credentials: { MY_API_KEY: "sk-live-123", OTHER: { nested: "x" } },
          sampling_token: "eyJhbGciOi",
          storageToken: "eyJ2",
          token: "t",
        },
        headers: { Authorization: "Bearer abc", "X-Api-Key": "k" },
        api_key: "a",
        apiKey: "b",
        password: "p",
        client_secret: "s",
        list: [{ access_token: "z", keep: 1 }],
      },
    };
    const copy = structuredClone(invoke);
    expect(redactSecrets(invoke)).toEqual({
      jsonrpc: "2.0",
      id: 2,
      method: "invoke",
      params: {
        tool: "search",
        arguments: { query: "weather", max_tokens: 5, maxTokens: 7 },
        context: {
          invoke_id: "inv-1",
          credentials: { MY_API_KEY: "[REDACTED]", OTHER: "[REDACTED]" },
          sampling_token: "[REDACTED]",
          storageToken: "[REDACTED]",
          token: "[REDACTED]",
        },
        headers: { Authorization: "[REDACTED]", "X-Api-Key": "[REDACTED]" },
        api_key: "[REDACTED]",
        apiKey: "[REDACTED]",
        password: "[REDACTED]",
        client_secret: "[REDACTED]",
        list: [{ access_token: "[REDACTED]", keep: 1 }],
      },
    });
    expect(invoke).toEqual(copy);
  });

  it("cuts every Nexus developer token (PAT) out of any string, whatever key holds it", () => {
    const pat = "anna_pat_Zk-9xYt1uVbN0aLmPqRsT4eFgHiJkLmNoPq_7w3q2";
    expect(redactSecrets({ note: `retrying with ${pat} after a 401`, list: [pat] })).toEqual({
      note: "retrying with [REDACTED] after a 401",
      list: ["[REDACTED]"],
    });
    // Too short to be a PAT: an ordinary mention of the prefix stays.
    expect(redactSecrets("the anna_pat_ prefix")).toBe("the anna_pat_ prefix");
  });

  it("replaces a non-object credentials value whole and passes primitives through", () => {
    expect(redactSecrets({ credentials: "all-in-one" })).toEqual({ credentials: "[REDACTED]" });
    expect(redactSecrets("text")).toBe("text");
    expect(redactSecrets(null)).toBeNull();
    expect(redactSecrets([1, { secret: 2 }])).toEqual([1, { secret: "[REDACTED]" }]);
  });
});
