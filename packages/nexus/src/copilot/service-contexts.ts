// What a host service (sampling, embeddings, upload) learns about a copilot call: the user, the
// executa or app it is for and the invoke it stands in for (an app session's uuid, a window's
// uuid, or the per-invoke token's invoke), so usage lands on the right (user, app) and upload
// keys are scoped to the caller.
import type { Grant, ServiceContext } from "@anna-ai/executa-host";
import type { AppSessionCaller } from "./copilot-auth.js";

/** The identity of a verified per-invoke token or window, as the services need it. */
export interface CallerIdentity {
  userId: string;
  toolId: string;
  invokeId: string;
  /** The app the call is for, when it is for one (usage is accounted per app). */
  appId: string | undefined;
}

export function serviceContextFor<G extends Grant>(
  who: CallerIdentity,
  tool: string,
  signal: AbortSignal,
  grant: G,
): ServiceContext<G> {
  return {
    userId: who.userId,
    toolId: who.toolId,
    invokeId: who.invokeId,
    pluginName: who.appId ?? who.toolId,
    tool,
    // The copilot endpoints have no invoke deadline: the request's own signal ends the call.
    deadlineMs: Number.POSITIVE_INFINITY,
    signal,
    grant,
    ...(who.appId !== undefined ? { app: { appId: who.appId, appScopeGranted: false } } : {}),
  };
}

export function sessionIdentity(caller: AppSessionCaller): CallerIdentity {
  const { session } = caller;
  return {
    userId: String(session.userId),
    toolId: session.toolId,
    invokeId: session.uuid,
    appId: session.appSlug !== "" ? session.appSlug : undefined,
  };
}

/** The unverified `aud` of a Bearer JWT, only to pick which verifier to run. */
export function bearerAudience(header: string | undefined): string | undefined {
  const token = /^bearer\s+(\S+)$/i.exec(header ?? "")?.[1];
  const payload = token?.split(".")[1];
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
      aud?: unknown;
    };
    const aud = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
    return typeof aud === "string" ? aud : undefined;
  } catch {
    return undefined;
  }
}
