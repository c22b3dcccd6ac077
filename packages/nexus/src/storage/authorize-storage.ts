// Who a `/api/v1/storage/*` call acts for. Two kinds of caller:
// - a `storage_token` (the `aps-storage` JWT `dev/storage/mint` hands out, which `executa dev
//   --storage real` and `anna-app dev --storage aps` send as Bearer): the user, tool, app and
//   scopes come from the token, never from the query, so a token for one tool cannot reach
//   another's rows;
// - a signed-in browser session or a PAT with `aps:dev`, acting for its own user, naming the
//   tool or app whose scope it reads with `tool_id` / `app_id`.
import type { StorageScope } from "@anna-ai/app-schema";
import type { StorageGrant } from "@anna-ai/executa-host";
import { PAT_PREFIX } from "../auth/scopes.js";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx } from "../http/context.js";
import { requireScopes, requireUser } from "../http/guards.js";
import { bearerOf, requireToken } from "../http/token-auth.js";
import { FAMILY_AUDIENCES } from "../tokens/audiences.js";

export interface StorageCaller {
  /** Owner of every row the call touches (`users.id` as text). */
  userId: string;
  /** The tool whose `tool` scope the call may use, if any. */
  toolId: string | undefined;
  /** The app whose `app` scope the call may use, if any. */
  appId: string | undefined;
  allowedScopes: readonly StorageScope[];
  grant: StorageGrant;
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const SCOPE_NAMES: readonly StorageScope[] = ["user", "tool", "app"];

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

export async function authorizeStorage(c: Ctx, deps: AppDeps): Promise<StorageCaller> {
  const bearer = bearerOf(c);
  // Without a keyring no storage token can be valid: the PAT path answers 401 "unknown token".
  if (bearer !== undefined && !bearer.startsWith(PAT_PREFIX) && deps.keyring) {
    return tokenCaller(c, deps);
  }
  const p = await requireUser(c, deps);
  requireScopes(p, ["aps:dev"]);
  return {
    userId: String(p.user.id),
    toolId: optionalId(c, "tool_id"),
    appId: optionalId(c, "app_id"),
    allowedScopes: ["user", "tool", "app"],
    grant: {},
  };
}

/** The caller a storage token names (claims written by `dev/storage/mint`). */
async function tokenCaller(c: Ctx, deps: AppDeps): Promise<StorageCaller> {
  const t = await requireToken(c, deps, FAMILY_AUDIENCES.storage);
  const claims = t.claims;
  // Dev sessions without an executa are bound to `app:<slug>` (dev-mint.ts): no tool scope.
  const toolId = t.toolId.startsWith("app:") ? undefined : t.toolId;
  const appId = typeof claims["app_slug"] === "string" ? claims["app_slug"] : undefined;
  const allowed = Array.isArray(claims["allowed_scopes"])
    ? SCOPE_NAMES.filter((s) => (claims["allowed_scopes"] as unknown[]).includes(s))
    : [];
  // The token already names its tool and app; a query naming another one is a mistake to
  // report, not a way to reach other rows.
  for (const [name, own] of [
    ["tool_id", toolId],
    ["app_id", appId],
  ] as const) {
    const asked = optionalId(c, name);
    if (asked !== undefined && asked !== own) {
      throw new NexusError(
        "forbidden",
        `this storage token is for ${name} ${JSON.stringify(own ?? null)}, not ${JSON.stringify(asked)}; drop ?${name}= or mint a token for it`,
      );
    }
  }
  const quotaBytes = claims["quota_bytes"];
  return {
    userId: t.userId,
    toolId,
    appId,
    allowedScopes: allowed,
    grant: typeof quotaBytes === "number" ? { quotaBytes } : {},
  };
}
