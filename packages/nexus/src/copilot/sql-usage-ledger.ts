// The gateway's UsageSink and QuotaPolicy on the `llm_usage` table (both dialects): every settled
// call is one row; the quota sums a user's tokens and images over the rolling window. Several
// Nexus nodes on one PostgreSQL count together because the sum is read from the shared table.
import type {
  CallAccount,
  CallPurpose,
  QuotaDecision,
  QuotaPolicy,
  UsageRecord,
  UsageSink,
} from "@anna-ai/agent";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";

export interface LlmQuota {
  /** Tokens (input + output) one user may use per window, across apps and purposes. */
  tokensPerUser: number | undefined;
  /** Images one user may make per window. */
  imagesPerUser: number | undefined;
  /** The rolling window. */
  windowMs: number;
}

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  images: number;
  calls: number;
}

export interface UsageFilter {
  userId: string;
  appId?: string;
  purpose?: CallPurpose;
  model?: string;
  sinceMs?: number;
}

/** One (app, purpose) line of a user's usage: `appId` "" is the user's own (chat, no app). */
export interface UsageLine extends UsageTotals {
  appId: string;
  purpose: string;
}

/** Lines one breakdown returns at most (the biggest first); the rest are summed into `others`. */
export const USAGE_BREAKDOWN_MAX_LINES = 50;

export class SqlUsageLedger implements UsageSink, QuotaPolicy {
  readonly #db: Kysely<Database>;
  readonly #quota: LlmQuota;
  readonly #clock: () => number;

  constructor(db: Kysely<Database>, quota: LlmQuota, clock: () => number) {
    this.#db = db;
    this.#quota = quota;
    this.#clock = clock;
  }

  get quota(): LlmQuota {
    return this.#quota;
  }

  async record(usage: UsageRecord): Promise<void> {
    await this.#db
      .insertInto("llm_usage")
      .values({
        user_id: usage.userId,
        app_id: usage.appId ?? "",
        tool_id: usage.toolId ?? "",
        purpose: usage.purpose,
        provider: usage.provider,
        model: usage.model,
        input_tokens: usage.inputTokens,
        output_tokens: usage.outputTokens,
        total_tokens: usage.totalTokens,
        images: usage.images,
        at_ms: usage.atMs,
      })
      .execute();
  }

  async check(account: CallAccount): Promise<QuotaDecision> {
    const { tokensPerUser, imagesPerUser, windowMs } = this.#quota;
    if (tokensPerUser === undefined && imagesPerUser === undefined) return { allowed: true };
    const used = await this.totals({ userId: account.userId, sinceMs: this.#clock() - windowMs });
    const hours = Math.max(1, Math.round(windowMs / 3_600_000));
    if (tokensPerUser !== undefined && used.totalTokens >= tokensPerUser) {
      return {
        allowed: false,
        reason: `user ${account.userId} used ${used.totalTokens} of ${tokensPerUser} tokens in the last ${hours} h; wait for older usage to leave the window or ask the operator to raise ANNA_LLM_QUOTA_TOKENS`,
      };
    }
    if (imagesPerUser !== undefined && used.images >= imagesPerUser) {
      return {
        allowed: false,
        reason: `user ${account.userId} made ${used.images} of ${imagesPerUser} images in the last ${hours} h; wait or ask the operator to raise ANNA_LLM_QUOTA_IMAGES`,
      };
    }
    return { allowed: true };
  }

  async totals(filter: UsageFilter): Promise<UsageTotals> {
    let q = this.#db
      .selectFrom("llm_usage")
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>("input_tokens"), eb.lit(0)).as("input"),
        eb.fn.coalesce(eb.fn.sum<number>("output_tokens"), eb.lit(0)).as("output"),
        eb.fn.coalesce(eb.fn.sum<number>("total_tokens"), eb.lit(0)).as("total"),
        eb.fn.coalesce(eb.fn.sum<number>("images"), eb.lit(0)).as("images"),
        eb.fn.countAll<number>().as("calls"),
      ])
      .where("user_id", "=", filter.userId);
    if (filter.appId !== undefined) q = q.where("app_id", "=", filter.appId);
    if (filter.purpose !== undefined) q = q.where("purpose", "=", filter.purpose);
    if (filter.model !== undefined) q = q.where("model", "=", filter.model);
    if (filter.sinceMs !== undefined) q = q.where("at_ms", ">=", filter.sinceMs);
    const row = await q.executeTakeFirstOrThrow();
    // PostgreSQL answers sums of bigint as numeric strings.
    return {
      inputTokens: Number(row.input),
      outputTokens: Number(row.output),
      totalTokens: Number(row.total),
      images: Number(row.images),
      calls: Number(row.calls),
    };
  }

  /** The user's usage since `sinceMs` per (app, purpose), the most tokens first. */
  async breakdown(userId: string, sinceMs: number): Promise<UsageLine[]> {
    const rows = await this.#db
      .selectFrom("llm_usage")
      .select((eb) => [
        "app_id",
        "purpose",
        eb.fn.sum<number>("input_tokens").as("input"),
        eb.fn.sum<number>("output_tokens").as("output"),
        eb.fn.sum<number>("total_tokens").as("total"),
        eb.fn.sum<number>("images").as("images"),
        eb.fn.countAll<number>().as("calls"),
      ])
      .where("user_id", "=", userId)
      .where("at_ms", ">=", sinceMs)
      .groupBy(["app_id", "purpose"])
      .orderBy("total", "desc")
      .orderBy("app_id")
      .orderBy("purpose")
      .limit(USAGE_BREAKDOWN_MAX_LINES)
      .execute();
    return rows.map((r) => ({
      appId: r.app_id,
      purpose: r.purpose,
      inputTokens: Number(r.input),
      outputTokens: Number(r.output),
      totalTokens: Number(r.total),
      images: Number(r.images),
      calls: Number(r.calls),
    }));
  }
}
