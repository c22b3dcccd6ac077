// `sampling/createMessage` (T17, R29). The router validates the params, folds the snake_case
// spellings into the MCP camelCase ones (normalizeSamplingParams) and enforces the per-invoke
// budgets before a call gets here.
import type { SamplingCreateMessageResult, SamplingRequest } from "@anna-ai/app-schema";
import type { SamplingGrant } from "./grants.js";
import type { ServiceContext } from "./service-context.js";

export interface SamplingService {
  /** `usage.totalTokens` of the result is what the per-invoke token budget counts. */
  createMessage(
    request: SamplingRequest,
    ctx: ServiceContext<SamplingGrant>,
  ): Promise<SamplingCreateMessageResult>;
}
