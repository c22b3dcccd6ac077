// `manifest.dev.mocks` (L4994–L5021): static answers keyed `"ns.method"`. A mock replaces only
// the handler: the call still needs a valid token for its window and an ACL grant — for
// `tools.invoke`/`invokeAsync`, a tool the manifest declares and `host_api.tools` matches (R143)
// — so a mocked app cannot do in dev what production would refuse. Value shapes (opaque in the spec, X42):
// `{result}` → ok with it; `{error: {code, message}}` → that error; anything else → ok with the
// value itself.
import {
  canonicalMethod,
  createHostApiAcl,
  HostApiError,
  type CallResult,
  type HostApiAcl,
  type WindowTokenIssuer,
} from "@anna-ai/app-core";
import type { AppManifest } from "@anna-ai/app-schema";
import { createHarnessAcl } from "../test-kit/harness-acl.js";
import { jsonFields } from "@anna-ai/app-core/http";

export interface DevMocks {
  /** The mocked answer, or undefined when the dispatcher should handle the call. */
  answer(
    token: string | undefined,
    wid: string,
    ns: string,
    method: string,
    args: unknown,
  ): Promise<CallResult | undefined>;
}

/** `handles`: `bundled:<handle>` handle → dev tool_id, as the dispatcher resolves them. */
export function createDevMocks(
  manifest: AppManifest,
  tokens: WindowTokenIssuer,
  handles: Readonly<Record<string, string>> = {},
): DevMocks {
  const mocks = manifest.dev?.mocks ?? {};
  const acl: HostApiAcl = createHostApiAcl(manifest.ui?.host_api);
  // The tool gate mountBundle shares with the dispatcher, validate and replay (app-schema's).
  const tools = createHarnessAcl(manifest as unknown as Record<string, unknown>, handles);
  return {
    async answer(token, wid, ns, method, args) {
      const key = `${ns}.${method}`;
      if (!Object.hasOwn(mocks, key)) return undefined;
      // Auth and ACL failures are the dispatcher's to answer, with its codes.
      try {
        const claims = await tokens.verify(token);
        if (claims.windowUuid !== wid) return undefined;
      } catch (error) {
        if (error instanceof HostApiError) return undefined;
        throw error;
      }
      const canonical = canonicalMethod(ns, method);
      if (!acl.check(ns, canonical).allowed) return undefined;
      if (ns === "tools" && !tools.allows(ns, canonical, jsonFields(args))) {
        return undefined;
      }
      return mockResult(mocks[key]);
    },
  };
}

export function mockResult(value: unknown): CallResult {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if ("result" in record) return { ok: true, result: record.result };
    const error = record.error;
    if (typeof error === "object" && error !== null) {
      const e = error as Record<string, unknown>;
      return {
        ok: false,
        error: {
          code: typeof e.code === "string" ? e.code : "mock_error",
          message: typeof e.message === "string" ? e.message : "mocked error (manifest.dev.mocks)",
          ...(typeof e.details === "object" && e.details !== null
            ? { details: e.details as Record<string, unknown> }
            : {}),
        },
      };
    }
  }
  return { ok: true, result: value };
}
