// `tools.*` (R143–R150, U56–U60): sync invoke through the Executa pool and the async job methods.
import { z } from "zod";
import { hostMethod, JsonObjectSchema, NoArgsSchema, lazySchema } from "./method-contract.js";

export const JOB_STATES = Object.freeze([
  "queued",
  "running",
  "succeeded",
  "failed",
  "cancelled",
  "expired",
] as const);
export type JobState = (typeof JOB_STATES)[number];

export const JOB_CLIENT_TAG_MAX_CHARS = 120;
export const JOB_CANCEL_REASON_MAX_CHARS = 200;
export const JOB_ID_PATTERN = /^tjob_[0-9a-f]{32}$/;

const JobStateSchema = lazySchema(() => z.enum(JOB_STATES));
const JobIdSchema = lazySchema(() =>
  z.string().regex(JOB_ID_PATTERN, "jobId must look like tjob_<32 hex>"),
);

const invokeFields = () => ({
  /** A tool id, or `bundled:<handle>` (the SDK resolves it through `window.__ANNA_TOOL_IDS__`). */
  tool_id: z.string().min(1, "tool_id required"),
  /** Required for minted ids without a `.`/`__` separator (R145). */
  method: z.string().min(1).optional(),
  args: JsonObjectSchema().nullish(),
  /** Host-side deadline; below 1 000 ms is refused, above 90 000 ms clamped. Booleans refused. */
  timeoutMs: z.number().finite().nullish(),
});

export const ToolsInvokeArgsSchema = lazySchema(() => z.looseObject(invokeFields()));
export const ToolsInvokeAsyncArgsSchema = lazySchema(() =>
  z.looseObject({
    ...invokeFields(),
    clientTag: z.string().max(JOB_CLIENT_TAG_MAX_CHARS).nullish(),
  }),
);

export const JobProgressEventSchema = lazySchema(() =>
  z.looseObject({
    seq: z.number(),
    type: z.string(),
    data: z.unknown().optional(),
  }),
);

export const JobErrorSchema = lazySchema(() =>
  z.looseObject({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
);

/** `getJob`'s authoritative snapshot (`tool_job` events are only hints). */
export const JobSnapshotSchema = lazySchema(() =>
  z.looseObject({
    jobId: z.string(),
    tool_id: z.string().optional(),
    method: z.string().optional(),
    state: JobStateSchema(),
    clientTag: z.string().nullish(),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
    deadlineMs: z.number().optional(),
    result: z.unknown().optional(),
    error: JobErrorSchema().optional(),
    progress: z.array(JobProgressEventSchema()).optional(),
    lastSeq: z.number().optional(),
    lastHeartbeatAt: z.string().nullish(),
  }),
);

export const ToolListEntrySchema = lazySchema(() =>
  z.looseObject({
    tool_id: z.string(),
    status: z.enum(["available", "deploying", "unavailable"]).optional(),
  }),
);

const TOOL_ERRORS = ["executa_unavailable", "tool_failed", "tool_timeout"] as const;

export const TOOLS_CONTRACT = {
  "tools.list": hostMethod(NoArgsSchema, () => z.object({ tools: z.array(ToolListEntrySchema()) })),
  /** The plugin's payload, forced to an object (R143); the SDK unwraps it (A4). */
  "tools.invoke": hostMethod(ToolsInvokeArgsSchema, JsonObjectSchema, TOOL_ERRORS),
  "tools.invokeAsync": hostMethod(
    ToolsInvokeAsyncArgsSchema,
    () => z.looseObject({ jobId: z.string(), state: z.literal("queued"), deadlineMs: z.number() }),
    ["executa_unavailable", "job_quota_exceeded", "long_job_capacity"],
  ),
  "tools.getJob": hostMethod(
    () =>
      z.looseObject({
        jobId: JobIdSchema(),
        sinceSeq: z.int().min(0).optional(),
        limit: z.int().min(1).max(500).optional(),
      }),
    JobSnapshotSchema,
    ["job_not_found"],
  ),
  "tools.cancelJob": hostMethod(
    () =>
      z.looseObject({
        jobId: JobIdSchema(),
        reason: z.string().max(JOB_CANCEL_REASON_MAX_CHARS).optional(),
      }),
    () => z.looseObject({ jobId: z.string(), state: JobStateSchema(), cancelled: z.boolean() }),
    ["job_not_found"],
  ),
  "tools.listJobs": hostMethod(
    () =>
      z.looseObject({
        tool_id: z.string().optional(),
        state: z.union([JobStateSchema(), z.array(JobStateSchema())]).optional(),
        clientTag: z.string().optional(),
        since: z.iso.datetime({ offset: true }).optional(),
        limit: z.int().min(1).max(100).optional(),
      }),
    () => z.looseObject({ jobs: z.array(JobSnapshotSchema()), truncated: z.boolean() }),
  ),
} as const;
