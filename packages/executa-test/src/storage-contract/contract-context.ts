// The callers the contract cases act as, a hand-moved clock, and the catalogued-error check.
// Owners differ on exactly one axis per case: user, tool, app, or a second user.
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import type { CatalogEntry } from "@anna-ai/app-schema/errors";
import type { ServiceContext, StorageGrant } from "@anna-ai/executa-host";
import type { StorageLimits } from "@anna-ai/executa-host/storage";
import { expect, onTestFinished } from "vitest";
import type { MakeStorage, StorageUnderTest } from "./subject.js";

export const E = STORAGE_ERRORS;

/** 2026-01-01T00:00:00Z: a fixed start so ISO timestamps are predictable. */
export const CONTRACT_T0_MS = Date.UTC(2026, 0, 1);

export interface ContractClock {
  now: () => number;
  advance: (ms: number) => void;
}

export function contractClock(start = CONTRACT_T0_MS): ContractClock {
  let now = start;
  return { now: () => now, advance: (ms) => void (now += ms) };
}

export interface CallerOptions {
  userId?: string;
  toolId?: string;
  appId?: string;
  grant?: StorageGrant;
}

/** A reverse-call context as the router builds it for a storage/files call. */
export function caller(options: CallerOptions = {}): ServiceContext<StorageGrant> {
  return {
    userId: options.userId ?? "user-1",
    toolId: options.toolId ?? "tool-a",
    invokeId: "inv-contract",
    pluginName: "contract-plugin",
    tool: "contract",
    deadlineMs: CONTRACT_T0_MS + 3_600_000,
    signal: new AbortController().signal,
    grant: options.grant ?? {},
    ...(options.appId === undefined
      ? {}
      : { app: { appId: options.appId, appScopeGranted: true } }),
  };
}

/** A fresh store for one case, closed when the case ends. */
export async function freshStore(
  make: MakeStorage,
  limits: Partial<StorageLimits> = {},
): Promise<StorageUnderTest & { clock: ContractClock }> {
  const clock = contractClock();
  const subject = await make({ clock: clock.now, limits });
  onTestFinished(async () => {
    await subject.close?.();
  });
  return { ...subject, clock };
}

/** Awaits a rejection that is the catalogued storage error `entry` (code and errorCode). */
export async function expectStorageError(
  promise: Promise<unknown>,
  entry: CatalogEntry,
): Promise<{ code: number; message: string; data?: unknown }> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected ${entry.errorCode} (${entry.code}), got a result`).toBeDefined();
  const error = caught as { code?: unknown; message?: unknown; data?: { errorCode?: unknown } };
  expect({ code: error.code, errorCode: error.data?.errorCode }).toEqual({
    code: entry.code,
    errorCode: entry.errorCode,
  });
  return caught as { code: number; message: string; data?: unknown };
}
