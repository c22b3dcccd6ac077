// Who calls a copilot endpoint, by the credential each spec path names:
// - an `app_session_token` (audience `aps-llm`, L7177) for complete, agent, cancel, refresh and
//   embeddings; minted by `…/dev/session/mint` (PAT, `sid` claim) or by the copilot session
//   endpoints (`cps` claim). The session row, not the token, decides liveness (L7181–7185).
// - a window token (`X-Anna-App-Token`, U41) for an app window creating its own sessions;
// - a plugin's per-invoke `sampling_token` for `…/from_sampling` and embeddings (L2043, L9348);
// - a PAT for `POST /copilot/app/sessions` from the CLI and standalone tools.
import type { CallAccount } from "@anna-ai/agent";
import { TokenError } from "@anna-ai/executa-host";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx } from "../http/context.js";
import { bearerOf, requireKeyring } from "../http/token-auth.js";
import { keyringWindowTokens } from "../runtime/window-token-service.js";
import { isLive } from "../stores/dev-session-store.js";
import { APP_SESSION_AUDIENCE, FAMILY_AUDIENCES } from "../tokens/audiences.js";
import { SESSION_CLAIM, verifyNexusToken } from "../tokens/verify-token.js";
import { type CopilotSessionStore, isLiveSession } from "./copilot-session-store.js";

/** The claim naming a copilot session (the dev sessions' is `sid`). */
export const COPILOT_SESSION_CLAIM = "cps";

/** An app session as the copilot endpoints use it, whichever table holds it. */
export interface AppSession {
  uuid: string;
  /** `dev` rows are PAT-minted (`dev_sessions`); `copilot` rows are window or plugin ones. */
  table: "dev" | "copilot";
  userId: number;
  kind: "agent" | "complete";
  submode: string | null;
  appSlug: string;
  toolId: string;
  systemPrompt: string | undefined;
}

export interface AppSessionCaller {
  session: AppSession;
  account: CallAccount;
}

export function accountOf(session: Pick<AppSession, "userId" | "appSlug" | "toolId">): CallAccount {
  return {
    userId: String(session.userId),
    ...(session.appSlug !== "" ? { appId: session.appSlug } : {}),
    ...(session.toolId.startsWith("app:") ? {} : { toolId: session.toolId }),
  };
}

function stringClaim(claims: Record<string, unknown>, name: string): string | undefined {
  const v = claims[name];
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** Verifies the Bearer `app_session_token` and the session it names. */
export async function appSessionCaller(
  c: Ctx,
  deps: AppDeps,
  sessions: CopilotSessionStore,
): Promise<AppSessionCaller> {
  const token = bearerOf(c);
  if (!token) {
    throw new NexusError(
      "unauthenticated",
      "send the app_session_token as Authorization: Bearer (mint one with POST /api/v1/copilot/app/sessions or …/anna-apps/dev/session/mint)",
    );
  }
  let verified;
  try {
    verified = await requireKeyring(deps).verify(token, APP_SESSION_AUDIENCE);
  } catch (err) {
    if (!(err instanceof TokenError)) throw err;
    if (err.code === "TOKEN_EXPIRED") {
      throw new NexusError(
        "APP_SESSION_TOKEN_EXPIRED",
        "the app_session_token has expired; refresh the session (POST /api/v1/copilot/app/sessions/{uuid}/refresh) and retry",
        { cause: err },
      );
    }
    throw new NexusError(
      err.code === "TOKEN_WRONG_AUDIENCE" ? "forbidden" : "unauthenticated",
      `${err.message}; the copilot endpoints take an app_session_token (audience ${APP_SESSION_AUDIENCE})`,
      { cause: err },
    );
  }
  const userId = Number(verified.userId);
  const now = deps.clock.now();
  const claims = verified.claims as Record<string, unknown>;
  const devUuid = stringClaim(claims, SESSION_CLAIM);
  const copilotUuid = stringClaim(claims, COPILOT_SESSION_CLAIM);
  let session: AppSession;
  if (devUuid !== undefined) {
    const found = await deps.stores.devSessions.findForVerifier(devUuid);
    if (!found || found.session.userId !== userId || found.session.kind === "storage") {
      throw new NexusError("unauthenticated", "the token names an unknown app session");
    }
    if (found.patRevoked) {
      throw new NexusError(
        "token_revoked",
        "the developer token that minted this session was revoked",
      );
    }
    checkLifecycle(found.session.revokedAt, isLive(found.session, now));
    session = {
      uuid: found.session.uuid,
      table: "dev",
      userId,
      kind: found.session.kind,
      submode: found.session.submode,
      appSlug: found.session.appSlug,
      toolId: found.session.toolId,
      systemPrompt: stringClaim(found.session.claims, "system_prompt"),
    };
  } else if (copilotUuid !== undefined) {
    const row = await sessions.find(userId, copilotUuid);
    if (!row) throw new NexusError("unauthenticated", "the token names an unknown app session");
    checkLifecycle(row.revokedAt, isLiveSession(row, now));
    session = {
      uuid: row.uuid,
      table: "copilot",
      userId,
      kind: row.kind,
      submode: row.submode,
      appSlug: row.appSlug,
      toolId: row.toolId,
      systemPrompt: row.claims.system_prompt ?? undefined,
    };
  } else {
    throw new NexusError("unauthenticated", "the token names no app session");
  }
  return { session, account: accountOf(session) };
}

function checkLifecycle(revokedAt: number | null, live: boolean): void {
  if (revokedAt !== null) {
    throw new NexusError("APP_SESSION_REVOKED", "this app session was revoked; create a new one");
  }
  if (!live) {
    throw new NexusError(
      "APP_SESSION_EXPIRED",
      "this app session crossed its idle or hard deadline; create a new one",
    );
  }
}

/** A plugin's sampling token: the user, executa and invoke it is bound to. */
export async function samplingCaller(c: Ctx, deps: AppDeps) {
  const token = bearerOf(c);
  if (!token) {
    throw new NexusError(
      "unauthenticated",
      "send the invoke's sampling_token as Authorization: Bearer",
    );
  }
  return verifyNexusToken(
    { keyring: requireKeyring(deps), stores: deps.stores, clock: deps.clock },
    token,
    FAMILY_AUDIENCES.sampling,
  );
}

export interface WindowCaller {
  userId: number;
  appId: string;
  windowUuid: string;
  /** The app version the window runs (its manifest is the ACL). */
  versionId: string;
}

/** The window token in `X-Anna-App-Token`, or undefined when the request carries none. */
export async function windowCaller(c: Ctx, deps: AppDeps): Promise<WindowCaller | undefined> {
  const token = c.req.header("x-anna-app-token");
  if (token === undefined) return undefined;
  try {
    const w = await keyringWindowTokens(requireKeyring(deps)).verify(token);
    return {
      userId: Number(w.userId),
      appId: w.appId,
      windowUuid: w.windowUuid,
      versionId: w.versionId,
    };
  } catch (err) {
    if (err instanceof NexusError) throw err;
    throw new NexusError(
      "unauthenticated",
      `${(err as Error).message}; open the window again or refresh its token with auth.refresh`,
      { cause: err },
    );
  }
}
