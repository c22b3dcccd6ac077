// Who a `/api/v1/storage/*` call acts for. Today: a signed-in browser session or a PAT with
// `aps:dev`, acting for its own user, naming the tool or app whose scope it reads with
// `tool_id` / `app_id`. The per-invoke storage tokens (H15, minted by `dev/storage/mint`) plug
// in here: they resolve to the same StorageCaller with the tool/app and scopes of their claims.
import type { StorageScope } from "@anna-ai/app-schema";
import type { StorageGrant } from "@anna-ai/executa-host";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx } from "../http/context.js";
import { requireScopes, requireUser } from "../http/guards.js";

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
