// Shared by the offline agent, image and upload tests.
import type { CatalogEntry } from "@anna-ai/app-schema/errors";
import { RpcError } from "@anna-ai/jsonrpc";
import { expect } from "vitest";
import type { Grant } from "../../../src/services/grants.js";
import type { ServiceContext } from "../../../src/services/service-context.js";
import { T0_MS } from "./helpers.js";

export function ctxWith<G extends Grant>(
  grant: G,
  overrides: Partial<Omit<ServiceContext<G>, "grant">> = {},
): ServiceContext<G> {
  return {
    userId: "user-1",
    toolId: "tool-a",
    invokeId: "inv-1",
    pluginName: "plugin-a",
    tool: "do-it",
    deadlineMs: T0_MS + 60_000,
    signal: new AbortController().signal,
    grant,
    ...overrides,
  };
}

/** Await a rejection and check it is the catalogued RpcError `entry`. */
export async function expectCatalogError(
  promise: Promise<unknown>,
  entry: CatalogEntry,
  message?: string | RegExp,
): Promise<RpcError> {
  const error = await promise.then(
    (value: unknown) => {
      throw new Error(`expected ${entry.errorCode} (${entry.code}), got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  const rpc = error as RpcError;
  expect({ code: rpc.code, errorCode: rpc.errorCode }).toEqual({
    code: entry.code,
    errorCode: entry.errorCode,
  });
  if (message !== undefined) expect(rpc.message).toMatch(message);
  return rpc;
}
