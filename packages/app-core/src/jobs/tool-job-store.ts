// Where async tool jobs (U59, R146–R150) live: plain, serialisable records so the server can keep
// them in its database and a job outlives the window (and the process) that started it. What
// cannot be serialised — the abort controller of a running invoke — stays in the dispatcher's
// process-local registry (tool-jobs.ts), keyed by job id.
import type { HostApiErrorWire } from "../errors/host-api-error.js";

import type { JobState } from "@anna-ai/app-schema/host-api";

// The states are the contract's (`@anna-ai/app-schema/host-api`).
export { JOB_STATES, type JobState } from "@anna-ai/app-schema/host-api";
export const TERMINAL_JOB_STATES: readonly JobState[] = [
  "succeeded",
  "failed",
  "cancelled",
  "expired",
];
export const ACTIVE_JOB_STATES: readonly JobState[] = ["queued", "running"];

export function isTerminalJobState(state: JobState): boolean {
  return TERMINAL_JOB_STATES.includes(state);
}

export interface ToolJobRecord {
  jobId: string;
  userId: string;
  /** The app (and version) whose window started it; only that app's windows see it. */
  appId: string;
  versionId: string;
  toolId: string;
  tool: string;
  clientTag: string | null;
  state: JobState;
  /** Epoch ms. */
  createdAt: number;
  updatedAt: number;
  deadlineMs: number;
  result?: unknown;
  error?: HostApiErrorWire;
  /** Bumped on every state change (`tool_job` events carry it; `getJob.lastSeq`). */
  seq: number;
}

export interface ToolJobFilter {
  userId: string;
  appId?: string;
  states?: readonly JobState[];
  toolId?: string;
  clientTag?: string;
  /** Epoch ms: jobs created at or after. */
  createdSince?: number;
}

/** Fields a transition may set; `seq` and `updatedAt` are the store's to bump. */
export type ToolJobChange = Partial<Pick<ToolJobRecord, "state" | "result" | "error">>;

/** Async so a database fits; implementations store and return copies. */
export interface ToolJobStore {
  insert(record: ToolJobRecord): Promise<void>;
  get(jobId: string): Promise<ToolJobRecord | undefined>;
  /**
   * Applies `change` only while the job's state is one of `from` (atomically: a cancel and a
   * finishing invoke cannot both win), bumps `seq`, sets `updatedAt`; `undefined` when the job
   * is missing or in another state.
   */
  transition(
    jobId: string,
    from: readonly JobState[],
    change: ToolJobChange,
    updatedAt: number,
  ): Promise<ToolJobRecord | undefined>;
  /** Newest first. */
  list(filter: ToolJobFilter): Promise<ToolJobRecord[]>;
}
