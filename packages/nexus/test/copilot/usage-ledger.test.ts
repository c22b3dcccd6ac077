// The gateway's usage sink and quota on the `llm_usage` table (migration 0011-llm-usage), on
// SQLite and PostgreSQL: rows per call, sums per (user, app, purpose, model), the rolling window.
import { describe, expect, it } from "vitest";
import type { UsageRecord } from "@anna-ai/agent";
import { SqlUsageLedger } from "../../src/copilot/sql-usage-ledger.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";

useDialectCleanup();

const HOUR = 3_600_000;

const rec = (over: Partial<UsageRecord>): UsageRecord => ({
  userId: "1",
  appId: "notes",
  toolId: undefined,
  purpose: "agent",
  provider: "openai-compatible",
  model: "m1",
  inputTokens: 10,
  outputTokens: 5,
  totalTokens: 15,
  images: 0,
  atMs: 0,
  ...over,
});

describe.each(DIALECTS)("llm usage ledger on $name", (d) => {
  it.skipIf(d.skip)("sums per user, app, purpose and model, and within a window", async () => {
    const db = (await d.open()).db;
    const now = 10 * HOUR;
    const ledger = new SqlUsageLedger(
      db,
      { tokensPerUser: undefined, imagesPerUser: undefined, windowMs: HOUR },
      () => now,
    );
    await ledger.record(rec({ atMs: now - 2 * HOUR }));
    await ledger.record(
      rec({ atMs: now, purpose: "sampling", totalTokens: 100, inputTokens: 60, outputTokens: 40 }),
    );
    await ledger.record(rec({ atMs: now, appId: undefined, model: "m2" }));
    await ledger.record(rec({ atMs: now, userId: "2" }));

    expect(await ledger.totals({ userId: "1" })).toEqual({
      inputTokens: 80,
      outputTokens: 50,
      totalTokens: 130,
      images: 0,
      calls: 3,
    });
    expect((await ledger.totals({ userId: "1", appId: "notes" })).calls).toBe(2);
    expect((await ledger.totals({ userId: "1", appId: "" })).totalTokens).toBe(15);
    expect((await ledger.totals({ userId: "1", purpose: "sampling" })).totalTokens).toBe(100);
    expect((await ledger.totals({ userId: "1", model: "m2" })).calls).toBe(1);
    expect((await ledger.totals({ userId: "1", sinceMs: now - HOUR })).totalTokens).toBe(115);
    expect(await ledger.totals({ userId: "nobody" })).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      images: 0,
      calls: 0,
    });
  });

  it.skipIf(d.skip)(
    "refuses a user at the token or image cap, counting only the window",
    async () => {
      const db = (await d.open()).db;
      let now = 100 * HOUR;
      const ledger = new SqlUsageLedger(
        db,
        { tokensPerUser: 30, imagesPerUser: 2, windowMs: HOUR },
        () => now,
      );
      expect(await ledger.check({ userId: "1" })).toEqual({ allowed: true });
      await ledger.record(rec({ atMs: now, totalTokens: 20 }));
      expect((await ledger.check({ userId: "1" })).allowed).toBe(true);
      await ledger.record(rec({ atMs: now, totalTokens: 10 }));
      const refused = await ledger.check({ userId: "1" });
      expect(refused.allowed).toBe(false);
      expect(!refused.allowed && refused.reason).toMatch(
        /used 30 of 30 tokens in the last 1 h; .*ANNA_LLM_QUOTA_TOKENS/,
      );
      // Another user is not affected.
      expect((await ledger.check({ userId: "2" })).allowed).toBe(true);
      // The window rolls on: older usage stops counting.
      now += HOUR + 1;
      expect((await ledger.check({ userId: "1" })).allowed).toBe(true);
      await ledger.record(rec({ atMs: now, purpose: "images", totalTokens: 0, images: 2 }));
      const images = await ledger.check({ userId: "1" });
      expect(!images.allowed && images.reason).toMatch(/made 2 of 2 images/);
    },
  );
});
