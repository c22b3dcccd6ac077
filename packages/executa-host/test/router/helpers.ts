import { RpcError } from "@anna-ai/jsonrpc";
import { expect } from "vitest";
import type { InvokeStart, PluginSessionInfo, RouterSession } from "../../src/router/contracts.js";
import type { ReverseRpcRouterOptions } from "../../src/router/reverse-rpc-router.js";
import { ReverseRpcRouter } from "../../src/router/reverse-rpc-router.js";
import { createAllowAllGrantPolicy } from "../../src/services/grants.js";
import { createRecordingServices } from "../../src/services/recording-services.js";
import type { RecordingServices } from "../../src/services/recording-services.js";

export const ALL_HOST_CAPABILITIES = [
  "llm.sample",
  "llm.agent.auto",
  "aps.kv",
  "aps.files",
  "llm.image",
  "llm.image.edit",
  "host.upload",
  "llm.embed",
];

export function sessionInfo(overrides: Partial<PluginSessionInfo> = {}): PluginSessionInfo {
  return {
    toolId: "tool-a",
    userId: "user-1",
    pluginName: "plugin-a",
    protocolVersion: "2.0",
    pluginCapabilities: {},
    hostCapabilities: ALL_HOST_CAPABILITIES,
    ...overrides,
  };
}

export function invokeStart(invokeId: string, overrides: Partial<InvokeStart> = {}): InvokeStart {
  return { invokeId, tool: "do-it", deadlineMs: Date.now() + 60_000, ...overrides };
}

export interface Harness {
  session: RouterSession;
  services: RecordingServices;
}

export function harness(
  options: Partial<ReverseRpcRouterOptions> = {},
  info: Partial<PluginSessionInfo> = {},
): Harness {
  const services = createRecordingServices();
  const router = new ReverseRpcRouter({
    services,
    grants: createAllowAllGrantPolicy(),
    ...options,
  });
  return { session: router.attach(sessionInfo(info)), services };
}

export const NEVER = new AbortController().signal;

/** Await a rejection and check it is an RpcError with this code and errorCode. */
export async function expectRpcError(
  promise: Promise<unknown>,
  code: number,
  errorCode: string,
  message?: string | RegExp,
): Promise<RpcError> {
  const error = await promise.then(
    (value: unknown) => {
      throw new Error(`expected an RpcError ${code}, got result ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  const rpc = error as RpcError;
  expect({ code: rpc.code, errorCode: rpc.errorCode }).toEqual({ code, errorCode });
  if (message !== undefined) expect(rpc.message).toMatch(message);
  expect(rpc.message).not.toMatch(/\n\s+at /);
  return rpc;
}

export const SAMPLE = {
  messages: [{ role: "user", content: { type: "text", text: "hi" } }],
  maxTokens: 100,
};

export function ctx(invokeId: string): { context: { invoke_id: string } } {
  return { context: { invoke_id: invokeId } };
}
