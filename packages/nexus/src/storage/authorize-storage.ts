// Who a `/api/v1/storage/*` call acts for. Two kinds of caller:
// - a per-invoke storage_token (H15; `Authorization: Bearer <jwt>`, aud `aps-storage`), as a
//   plugin's calls carry it in production (the Agent forwards them, executa.md L442) and as
//   `dev/storage/mint` hands it out: the user, tool, scopes and call budget are the token's;
// - a signed-in browser session or a PAT with `aps:dev`, acting for its own user, naming the
//   tool or app whose scope it reads with `tool_id` / `app_id`.
import type { StorageScope } from "@anna-ai/app-schema";
import type { StorageGrant } from "@anna-ai/executa-host";
import { PAT_PREFIX } from "../auth/scopes.js";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx } from "../http/context.js";
import { requireScopes, requireUser } from "../http/guards.js";
import { bearerOf, requireKeyring } from "../http/token-auth.js";
import { STORAGE_MAX_CALLS } from "../routes/storage-mint.js";
import { FAMILY_AUDIENCES } from "../tokens/audiences.js";
import { type VerifiedNexusToken, verifyNexusToken } from "../tokens/verify-token.js";
import type { InvokeCallBudget } from "./invoke-call-budget.js";

export interface StorageCaller {
  /** Owner of every row the call touches (`users.id` as text). */
  userId: string;
  /** The tool whose `tool` scope the call may use, if any. */
  toolId: string | undefined;
  /** The app whose `app` scope the call may use, if any. */
  appId: string | undefined;
  /** The invoke a storage_token is bound to; "" for a session or PAT. */
  invokeId: string;
  allowedScopes: readonly StorageScope[];
  grant: StorageGrant;
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const SCOPES: readonly StorageScope[] = ["user", "tool", "app"];
/** Plugin tokens without an `allowed_scopes` claim get the plugin default (H14, R40). */
const DEFAULT_TOKEN_SCOPES: readonly StorageScope[] = ["user", "tool"];
/** `dev/storage/mint` binds an app without an executa to the tool id `app:<slug>` (dev-mint.ts). */
const APP_TOOL_PREFIX = "app:";

function optionalId(c: Ctx, name: string): string | undefined {
  const v = c.req.query(name);
  if (v === undefined || v === "") return undefined;
  if (!ID_PATTERN.test(v)) {
    throw new NexusError(
      "invalid_request",
      `${name} must be 1–128 characters of letters, digits, '.', '_', ':' or '-'`,
    );
  }
  return v;
}

export async function authorizeStorage(
  c: Ctx,
  deps: AppDeps,
  budget: InvokeCallBudget,
): Promise<StorageCaller> {
  const bearer = bearerOf(c);
  // Without a keyring no storage token can be valid: the PAT path answers 401 "unknown token".
  if (bearer !== undefined && !bearer.startsWith(PAT_PREFIX) && deps.keyring) {
    return tokenCaller(c, deps, budget, bearer);
  }
  const p = await requireUser(c, deps);
  requireScopes(p, ["aps:dev"]);
  return {
    userId: String(p.user.id),
    toolId: optionalId(c, "tool_id"),
    appId: optionalId(c, "app_id"),
    invokeId: "",
    allowedScopes: ["user", "tool", "app"],
    grant: {},
  };
}

/**
 * A storage_token's caller. A `tool_id` or `app_id` in the query must be the token's own (403
 * otherwise): a token for one tool never reaches another tool's rows.
 */
async function tokenCaller(
  c: Ctx,
  deps: AppDeps,
  budget: InvokeCallBudget,
  token: string,
): Promise<StorageCaller> {
  const askedTool = optionalId(c, "tool_id");
  const askedApp = optionalId(c, "app_id");
  const t = await verifyNexusToken(
    { keyring: requireKeyring(deps), stores: deps.stores, clock: deps.clock },
    token,
    FAMILY_AUDIENCES.storage,
  );
  const allowedScopes = scopesClaim(t.claims["allowed_scopes"]);
  const toolId = t.toolId.startsWith(APP_TOOL_PREFIX) ? undefined : t.toolId;
  // Only a token that may use the app scope has an app (a plugin's omitted scope means `tool`).
  const appId = allowedScopes.includes("app") ? tokenAppId(t) : undefined;
  // The token already names its tool and app; a query naming another one is a mistake to
  // report, not a way to reach other rows.
  for (const [name, asked, own] of [
    ["tool_id", askedTool, toolId],
    ["app_id", askedApp, appId],
  ] as const) {
    if (asked !== undefined && asked !== own) {
      throw new NexusError(
        "forbidden",
        `this storage token is for ${name} ${JSON.stringify(own ?? null)}, not ${JSON.stringify(asked)}; drop ?${name}= or mint a token for it`,
      );
    }
  }
  const maxCalls = positiveInt(t.claims["max_calls"]) ?? STORAGE_MAX_CALLS;
  budget.charge(
    `${t.userId}\u0000${t.toolId}\u0000${t.invokeId}`,
    Math.min(maxCalls, STORAGE_MAX_CALLS),
    t.expiresAtS * 1000,
    deps.clock.now(),
  );
  // `quota_bytes` is what `dev/storage/mint` writes (it only ever lowers the user's quota).
  const quotaBytes =
    positiveInt(t.claims["max_total_bytes"]) ?? positiveInt(t.claims["quota_bytes"]);
  const objectMaxBytes = positiveInt(t.claims["max_file_bytes"]);
  return {
    userId: t.userId,
    toolId,
    appId,
    invokeId: t.invokeId,
    allowedScopes,
    grant: {
      allowedScopes: allowedScopes.filter((s) => s !== "app") as Exclude<StorageScope, "app">[],
      maxCalls,
      ...(quotaBytes === undefined ? {} : { quotaBytes }),
      ...(objectMaxBytes === undefined ? {} : { objectMaxBytes }),
    },
  };
}

/** The app whose scope the token may use: an `app_id` claim, else a dev mint's `app_slug`. */
function tokenAppId(t: VerifiedNexusToken): string | undefined {
  const id = t.claims["app_id"] ?? t.claims["app_slug"];
  return typeof id === "string" && ID_PATTERN.test(id) ? id : undefined;
}

function scopesClaim(v: unknown): StorageScope[] {
  if (!Array.isArray(v)) return [...DEFAULT_TOKEN_SCOPES];
  return SCOPES.filter((s) => v.includes(s));
}

function positiveInt(v: unknown): number | undefined {
  return typeof v === "number" && Number.isInteger(v) && v > 0 ? v : undefined;
}
