// What the gateway refuses to do for a hostile or broken provider, and for a user past quota.
import { describe, expect, it } from "vitest";
import { GatewayError, MemoryUsageLedger } from "../src/index.js";
import { ACCOUNT, collect, harness } from "./helpers.js";

const CALL = { account: ACCOUNT, purpose: "chat" } as const;
const HUGE = Array.from({ length: 300 }, () => "x".repeat(1000));

describe("the gateway's limits", () => {
  it("cuts a stream that passes the response byte cap", async () => {
    const { fake, gateway } = await harness(
      { provider: "openai", model: "gpt-test", openaiApi: "chat" },
      { maxResponseBytes: 64 * 1024 },
    );
    fake.enqueue({ text: HUGE });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of gateway.streamChat(
        { messages: [{ role: "user", content: "go" }] },
        CALL,
      )) {
        if (event.type === "text-delta") seen.push(event.text);
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as Error).message).toContain("passed 65536 bytes");
    expect(seen.join("").length).toBeLessThan(64 * 1024);
  });

  it("refuses a non-streamed answer past the cap", async () => {
    const { fake, gateway } = await harness(
      { provider: "anthropic", model: "claude-sonnet-4-5" },
      { maxResponseBytes: 64 * 1024 },
    );
    fake.enqueue({ text: HUGE });
    await expect(
      gateway.complete({ messages: [{ role: "user", content: "go" }] }, CALL),
    ).rejects.toMatchObject({
      code: "provider_error",
      message: expect.stringContaining("passed 65536 bytes"),
    });
  });

  it("asks the quota policy before any provider request, per user", async () => {
    const ledger = new MemoryUsageLedger({ tokensPerUser: 10 });
    const { fake, gateway } = await harness(
      { provider: "openai", model: "gpt-test" },
      { usage: ledger, quota: ledger },
    );
    fake.enqueue({ text: "spent", usage: { inputTokens: 8, outputTokens: 4 } });
    await collect(gateway.streamChat({ messages: [{ role: "user", content: "a" }] }, CALL));
    await expect(
      collect(gateway.streamChat({ messages: [{ role: "user", content: "b" }] }, CALL)),
    ).rejects.toMatchObject({
      code: "quota_exceeded",
    });
    expect(fake.requests).toHaveLength(1);
    expect(
      ledger.totals({ userId: ACCOUNT.userId, appId: ACCOUNT.appId, purpose: "chat" }),
    ).toMatchObject({ totalTokens: 12, calls: 1 });
  });

  it("says where it could not reach a provider, without retrying forever", async () => {
    const { fake, gateway, sleeps } = await harness({
      provider: "openai",
      model: "gpt-test",
      maxRetries: 1,
    });
    const baseUrl = fake.baseUrl;
    await fake.close();
    const error = await gateway
      .complete({ messages: [{ role: "user", content: "a" }] }, CALL)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "unreachable", attempts: 2 });
    expect((error as Error).message).toContain(new URL(baseUrl).host);
    expect(sleeps).toHaveLength(1);
  });

  it("hands the provider packages' warnings to onWarning instead of printing them", async () => {
    const warnings: string[] = [];
    const { fake, gateway } = await harness(
      { provider: "anthropic", model: "claude-unknown-test" },
      { onWarning: (message) => warnings.push(message) },
    );
    fake.enqueue({ text: "ok" });
    await gateway.complete({ messages: [{ role: "user", content: "a" }], temperature: 0.5 }, CALL);
    expect(
      warnings.some((w) => w.includes("temperature is not supported by claude-unknown-test")),
    ).toBe(true);
  });
});
