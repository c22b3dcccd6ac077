// `storage.*` (R129–R135) over one of two backends: `legacy` keeps every key in the window's
// runtime_state (256 KiB cap, `runtime_state_synced` on each write); `aps` calls the same
// StorageService the plugins' `storage/*` uses, at scope `app` owned by this app.
import { createHash } from "node:crypto";
import type { StorageGrant, StorageService } from "@anna-ai/executa-host";
import { STORAGE_LIST_MAX_LIMIT } from "@anna-ai/app-schema";
import { HostApiError } from "../errors/host-api-error.js";
import { callService, requireService } from "../dispatcher/service-errors.js";
import type { CallContext, MethodTable } from "../dispatcher/types.js";
import { contractMethod } from "./contract-method.js";
import { appServiceContext } from "./service-context.js";
import { checkKvKey, checkKvPrefix } from "./storage-keys.js";

export const STORAGE_LIST_LIMIT_DEFAULT = 100;
/** The contract's cap (the plugins' `storage/list` shares it). */
export const STORAGE_LIST_LIMIT_MAX = STORAGE_LIST_MAX_LIMIT;

/** Legacy etag: weak, generation 1, from the value (U62). Opaque to apps (Z15). */
export function legacyEtag(value: unknown): string {
  const digest = createHash("sha256")
    .update(JSON.stringify(value ?? null))
    .digest("hex");
  return `W/"1-${digest.slice(0, 16)}"`;
}

export function storageMethods(backend: "legacy" | "aps"): MethodTable {
  return backend === "legacy" ? legacyMethods() : apsMethods();
}

/** Scopes other than the app's own bucket (R130). */
function checkScope(
  ctx: CallContext,
  scope: "app" | "user" | "tool" | undefined,
  owner: string | undefined,
  action: "read" | "write",
): "app" | "user" {
  if (scope === "tool") {
    throw new HostApiError("not_implemented", "storage scope 'tool' is not available to apps");
  }
  if (scope === "user") {
    const caps = ctx.core.manifest.host_capabilities as readonly string[];
    if (!caps.includes(`aps.scope.user.${action}`) && !caps.includes("aps.scope.admin")) {
      throw new HostApiError(
        "permission_denied",
        `storage scope 'user' needs host_capabilities "aps.scope.user.${action}"`,
      );
    }
    return "user";
  }
  if (owner !== undefined && owner !== ctx.core.appId) {
    throw new HostApiError("not_implemented", "cross-app storage is not implemented", { owner });
  }
  return "app";
}

function legacyMethods(): MethodTable {
  const legacyOnly = (ctx: CallContext, scope: string | undefined, owner: string | undefined) => {
    if (
      (scope !== undefined && scope !== "app") ||
      (owner !== undefined && owner !== ctx.core.appId)
    ) {
      throw new HostApiError(
        "not_implemented",
        "the legacy runtime_state backend has only the window's own bucket",
      );
    }
  };
  return {
    "storage.get": contractMethod("storage.get", async (args, ctx) => {
      const key = checkKvKey(args.key);
      legacyOnly(ctx, args.scope, args.owner);
      const window = await ctx.core.windows.requireLive(ctx.window.windowUuid);
      if (!Object.hasOwn(window.runtimeState, key)) return { value: null, exists: false };
      const value = window.runtimeState[key];
      return { value, etag: legacyEtag(value), generation: 1, exists: true };
    }),
    "storage.set": contractMethod("storage.set", async (args, ctx) => {
      const key = checkKvKey(args.key);
      legacyOnly(ctx, args.scope, args.owner);
      const value = args.value === undefined ? null : args.value;
      await ctx.core.windows.patchRuntimeState(ctx.window.windowUuid, { [key]: value });
      return {
        ok: true,
        etag: legacyEtag(value),
        generation: 1,
        size_bytes: Buffer.byteLength(JSON.stringify(value), "utf8"),
      };
    }),
    "storage.delete": contractMethod("storage.delete", async (args, ctx) => {
      const key = checkKvKey(args.key);
      legacyOnly(ctx, args.scope, args.owner);
      const window = await ctx.core.windows.requireLive(ctx.window.windowUuid);
      // R134: legacy silently no-ops a missing key and ignores if_match.
      if (Object.hasOwn(window.runtimeState, key)) {
        const { [key]: _removed, ...rest } = window.runtimeState;
        await ctx.core.windows.replaceRuntimeState(ctx.window.windowUuid, rest);
      }
      return { ok: true, deleted: true };
    }),
    "storage.list": contractMethod("storage.list", async (args, ctx) => {
      const prefix = checkKvPrefix(args.prefix);
      legacyOnly(ctx, args.scope, args.owner);
      const limit = args.limit ?? STORAGE_LIST_LIMIT_DEFAULT;
      const window = await ctx.core.windows.requireLive(ctx.window.windowUuid);
      const keys = Object.keys(window.runtimeState)
        .filter((k) => k.startsWith(prefix) && (args.cursor == null || k > args.cursor))
        .sort();
      const page = keys.slice(0, limit);
      const items = page.map((key) => {
        const value = window.runtimeState[key];
        return {
          key,
          etag: legacyEtag(value),
          size_bytes: Buffer.byteLength(JSON.stringify(value ?? null), "utf8"),
          metadata: null,
          tags: null,
          updated_at: null,
        };
      });
      return { items, next_cursor: keys.length > limit ? (page.at(-1) ?? null) : null };
    }),
  };
}

function apsMethods(): MethodTable {
  const service = (ctx: CallContext): StorageService => requireService(ctx, "storage");
  const grant: StorageGrant = {};
  return {
    "storage.get": contractMethod("storage.get", async (args, ctx) => {
      const key = checkKvKey(args.key);
      const scope = checkScope(ctx, args.scope, args.owner, "read");
      return callService(ctx, () =>
        service(ctx).get({ key, scope }, appServiceContext(ctx, grant)),
      );
    }),
    "storage.set": contractMethod("storage.set", async (args, ctx) => {
      const key = checkKvKey(args.key);
      const scope = checkScope(ctx, args.scope, args.owner, "write");
      const params = {
        key,
        value: args.value === undefined ? null : args.value,
        scope,
        ...(args.if_match == null ? {} : { if_match: args.if_match }),
        ...(args.ttl_seconds == null ? {} : { ttl_seconds: args.ttl_seconds }),
        ...(args.tags == null ? {} : { tags: args.tags }),
        ...(args.metadata == null ? {} : { metadata: args.metadata }),
      };
      return callService(ctx, () => service(ctx).set(params, appServiceContext(ctx, grant)));
    }),
    "storage.delete": contractMethod("storage.delete", async (args, ctx) => {
      const key = checkKvKey(args.key);
      const scope = checkScope(ctx, args.scope, args.owner, "write");
      const params = { key, scope, ...(args.if_match == null ? {} : { if_match: args.if_match }) };
      return callService(ctx, () => service(ctx).delete(params, appServiceContext(ctx, grant)));
    }),
    "storage.list": contractMethod("storage.list", async (args, ctx) => {
      const prefix = checkKvPrefix(args.prefix);
      const scope = checkScope(ctx, args.scope, args.owner, "read");
      const params = {
        scope,
        ...(prefix === "" ? {} : { prefix }),
        ...(args.cursor == null ? {} : { cursor: args.cursor }),
        limit: args.limit ?? STORAGE_LIST_LIMIT_DEFAULT,
      };
      return callService(ctx, () => service(ctx).list(params, appServiceContext(ctx, grant)));
    }),
  };
}
