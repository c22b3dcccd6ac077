// Shared by the offline service tests: a clock, service contexts, the catalogued-error check, a
// sampling request builder, a JSON Schema validator independent of the generator under test
// (zod's JSON Schema import), and the launch specs of the example plugins the under-host tests run.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { SamplingRequest } from "@anna-ai/app-schema";
import type { CatalogEntry } from "@anna-ai/app-schema/errors";
import { RpcError } from "@anna-ai/jsonrpc";
import { beforeAll, expect } from "vitest";
import { z } from "zod";
import { detectLaunchSpec } from "../../../src/launch/detect.js";
import type { LaunchSpec } from "../../../src/launch/types.js";
import type { Grant, StorageGrant } from "../../../src/services/grants.js";
import type { ServiceContext } from "../../../src/services/service-context.js";

export const T0_MS = Date.UTC(2026, 0, 1);

/** A clock the test moves by hand. */
export function manualClock(start = T0_MS): { now: () => number; advance: (ms: number) => void } {
  let now = start;
  return { now: () => now, advance: (ms) => void (now += ms) };
}

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

export function storageCtx(
  overrides: Partial<ServiceContext<StorageGrant>> = {},
): ServiceContext<StorageGrant> {
  return serviceCtx<StorageGrant>(overrides);
}

export function ctxWith<G extends Grant>(
  grant: G,
  overrides: Partial<Omit<ServiceContext<G>, "grant">> = {},
): ServiceContext<G> {
  return serviceCtx<G>({ ...overrides, grant });
}

/** Await a rejection and check it is a catalogued RpcError with this code and errorCode. */
export async function expectRpcError(
  promise: Promise<unknown>,
  code: number,
  errorCode: string,
  message?: string | RegExp,
): Promise<RpcError> {
  return expectRejection(promise, `RpcError ${code}`, { code, errorCode }, message);
}

/** Await a rejection and check it is the catalogued RpcError `entry`. */
export async function expectCatalogError(
  promise: Promise<unknown>,
  entry: CatalogEntry,
  message?: string | RegExp,
): Promise<RpcError> {
  return expectRejection(
    promise,
    `${entry.errorCode} (${entry.code})`,
    { code: entry.code, errorCode: entry.errorCode },
    message,
  );
}

async function expectRejection(
  promise: Promise<unknown>,
  expected: string,
  codes: { code: number; errorCode: string },
  message: string | RegExp | undefined,
): Promise<RpcError> {
  const error = await promise.then(
    (value: unknown) => {
      throw new Error(`expected ${expected}, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  const rpc = error as RpcError;
  expect({ code: rpc.code, errorCode: rpc.errorCode }).toEqual(codes);
  if (message !== undefined) expect(rpc.message).toMatch(message);
  return rpc;
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

/** Validation issues of `value` against a JSON Schema; empty when it validates. */
export function schemaIssues(schema: Record<string, unknown>, value: unknown): string[] {
  const parsed = z
    .fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0])
    .safeParse(value);
  return parsed.success
    ? []
    : parsed.error.issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`);
}

/** The repository's example plugins, which the under-host tests run for real. */
export const EXAMPLES_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../../../../../examples/executas",
);

/**
 * Detects the launch specs of these example plugins once, in a `beforeAll` of the calling
 * suite: detection probes interpreters, which stays outside the timed tests. The returned lookup
 * throws for a name that was not detected.
 */
export function exampleSpecs(
  names: readonly string[],
  env: NodeJS.ProcessEnv,
): (name: string) => LaunchSpec {
  const specs = new Map<string, LaunchSpec>();
  beforeAll(async () => {
    for (const name of names) {
      specs.set(name, await detectLaunchSpec(join(EXAMPLES_DIR, name), { env }));
    }
  });
  return (name) => {
    const found = specs.get(name);
    if (found === undefined) throw new Error(`${name} was not detected`);
    return found;
  };
}
