import type { WindowGeometry } from "@anna-ai/app-schema";
import type { WindowStatus } from "./window-status.js";

/**
 * One opened window (`AnnaAppWindowSession`, U2). Server-authoritative: another tab or device
 * hydrates the same record (U3).
 */
export interface WindowRecord {
  windowUuid: string;
  userId: string;
  appId: string;
  versionId: string;
  view: string;
  status: WindowStatus;
  title: string;
  geometry: WindowGeometry;
  runtimeState: Record<string, unknown>;
  /** Bumped on every runtime_state write; the legacy backend's etag generation. */
  stateGeneration: number;
  entryPayload: unknown;
  conversationSessionUuid: string | null;
  zIndex: number;
  /** Epoch ms. */
  createdAt: number;
  lastFocusAt: number;
  /** Last heartbeat or RPC (the idle reaper's clock, U33). */
  lastSeenAt: number;
}

export interface WindowListFilter {
  userId: string;
  appId?: string;
  conversationSessionUuid?: string | null;
  view?: string;
  statuses?: readonly WindowStatus[];
}

/**
 * Where windows live. In-memory now (`createMemoryWindowStore`); the server brings a database
 * one. Async so either fits; implementations return copies, never their own objects.
 */
export interface WindowStore {
  insert(record: WindowRecord): Promise<void>;
  get(windowUuid: string): Promise<WindowRecord | undefined>;
  /** Applies `patch` and returns the new record; rejects when the window does not exist. */
  update(
    windowUuid: string,
    patch: Partial<Omit<WindowRecord, "windowUuid">>,
  ): Promise<WindowRecord>;
  list(filter: WindowListFilter): Promise<WindowRecord[]>;
  /**
   * Applies `patch` only while the window's `stateGeneration` is still `generation`, atomically
   * (compare-and-set: of two runtime-state writes that read the same state, one lands and the
   * other reads again instead of overwriting it); `undefined` when the generation moved on.
   * Rejects when the window does not exist.
   */
  updateIfGeneration(
    windowUuid: string,
    generation: number,
    patch: Partial<Omit<WindowRecord, "windowUuid">>,
  ): Promise<WindowRecord | undefined>;
}
