// Shared by the sampling and embeddings service tests: a service context, a request builder and
// a JSON Schema validator independent of the generator under test (zod's JSON Schema import).
import type { SamplingRequest } from "@anna-ai/app-schema";
import { RpcError } from "@anna-ai/jsonrpc";
import { expect } from "vitest";
import { z } from "zod";
import type { Grant } from "../../../src/services/grants.js";
import type { ServiceContext } from "../../../src/services/service-context.js";

export const T0_MS = Date.UTC(2026, 0, 1);

export function serviceCtx<G extends Grant>(
  overrides: Partial<ServiceContext<G>> = {},
): ServiceContext<G> {
  return {
    userId: "user-1",
    toolId: "tool-a",
    invokeId: "inv-1",
    pluginName: "plugin-a",
    tool: "do-it",
    deadlineMs: T0_MS + 60_000,
    signal: new AbortController().signal,
    grant: {} as G,
    ...overrides,
  };
}

/** A normalised request (what the router hands the service) asking `text` of the model. */
export function request(text: string, extra: Partial<SamplingRequest> = {}): SamplingRequest {
  return {
    messages: [{ role: "user", content: { type: "text", text } }],
    maxTokens: 400,
    includeContext: "none",
    onUnsupported: "error",
    ...extra,
  };
}

/** Await a rejection and check it is a catalogued RpcError with this code and errorCode. */
export async function expectRpcError(
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

/** Validation issues of `value` against a JSON Schema; empty when it validates. */
export function schemaIssues(schema: Record<string, unknown>, value: unknown): string[] {
  const parsed = z
    .fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0])
    .safeParse(value);
  return parsed.success
    ? []
    : parsed.error.issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`);
}
