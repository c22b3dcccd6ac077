import { RpcError } from "@anna-ai/jsonrpc";
import { expect } from "vitest";
import type { StorageGrant } from "../../../src/services/grants.js";
import type { ServiceContext } from "../../../src/services/service-context.js";

export const T0_MS = Date.UTC(2026, 0, 1);

/** A clock the test moves by hand. */
export function manualClock(start = T0_MS): { now: () => number; advance: (ms: number) => void } {
  let now = start;
  return { now: () => now, advance: (ms) => void (now += ms) };
}

export function storageCtx(
  overrides: Partial<ServiceContext<StorageGrant>> = {},
): ServiceContext<StorageGrant> {
  return {
    userId: "user-1",
    toolId: "tool-a",
    invokeId: "inv-1",
    pluginName: "plugin-a",
    tool: "do-it",
    deadlineMs: T0_MS + 60_000,
    signal: new AbortController().signal,
    grant: {},
    ...overrides,
  };
}

/** Await a rejection and check it is a catalogued RpcError with this code and errorCode. */
export async function expectStorageError(
  promise: Promise<unknown>,
  code: number,
  errorCode: string,
  message?: string | RegExp,
): Promise<RpcError> {
  const error = await promise.then(
    (value: unknown) => {
      throw new Error(`expected RpcError ${code}, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  const rpc = error as RpcError;
  expect({ code: rpc.code, errorCode: rpc.errorCode }).toEqual({ code, errorCode });
  if (message !== undefined) expect(rpc.message).toMatch(message);
  return rpc;
}
