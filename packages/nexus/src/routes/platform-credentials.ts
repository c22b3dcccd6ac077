// Platform authorizations for the dashboard (spec "API surface", `/api/v1/platform-credentials`;
// an internal surface for the Anna UI, not for plugins):
//   GET    /providers                                   → the providers the operator configured
//   GET    /my                                          → the user's accounts per provider (metadata)
//   GET    /oauth/{provider}/authorize[?scope=a b]      → 302 to the provider (a browser session)
//   GET    /oauth/{provider}/callback?code&state        → 302 to /settings/authorizations
//   PUT    /my/{provider}/accounts/{account_id}/default → makes it the provider's default
//   DELETE /my/{provider}/accounts/{account_id}         → revokes upstream where it can, disconnects
// Writes with a cookie pass createApp's CSRF guard like every cookie write; a PAT needs `aps:dev`.
// The callback answers with a redirect whatever happens, so the person lands on the settings page
// with what went wrong in its query (`error`, `message`), never on a JSON page.
import { Hono } from "hono";
import type { ConnectedAccounts } from "../credentials/connected-accounts.js";
import { OAuthFlowError, type OAuthFlows } from "../credentials/oauth-flows.js";
import type { OAuthProvider } from "../credentials/oauth-providers.js";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env } from "../http/context.js";
import { authenticate } from "../http/guards.js";
import { member } from "./store.js";

/** Where the dashboard shows connected accounts. */
export const AUTHORIZATIONS_PAGE = "/settings/authorizations";
export const PLATFORM_CREDENTIALS_PREFIX = "/api/v1/platform-credentials";

export interface PlatformCredentials {
  accounts: ConnectedAccounts;
  flows: OAuthFlows;
}

function platform(deps: AppDeps): PlatformCredentials {
  if (!deps.platformCredentials) {
    throw new NexusError("unavailable", "connected accounts are not enabled on this server");
  }
  return deps.platformCredentials;
}

function providerOf(c: Ctx, p: PlatformCredentials): OAuthProvider {
  const id = c.req.param("provider") ?? "";
  const provider = p.accounts.registry.get(id);
  if (provider === undefined) {
    const configured = p.accounts.registry.providers.map((x) => x.id).join(", ") || "none";
    throw new NexusError(
      "not_found",
      `no provider '${id.slice(0, 60)}' on this server (configured: ${configured})`,
    );
  }
  return provider;
}

export function callbackUrl(c: Ctx, providerId: string): string {
  return `${c.get("ownOrigin")}${PLATFORM_CREDENTIALS_PREFIX}/oauth/${encodeURIComponent(providerId)}/callback`;
}

function providerView(p: OAuthProvider) {
  return {
    id: p.id,
    name: p.name,
    scopes: [...p.scopes],
    credential_names: [...p.credentialNames],
  };
}

/** Scopes a user picked: a subset of the provider's, in its order; none picked = all of them. */
function pickedScopes(c: Ctx, provider: OAuthProvider): string[] {
  const raw = c.req.query("scope");
  if (raw === undefined || raw.trim() === "") return [...provider.scopes];
  const picked = new Set(raw.split(/[\s,]+/).filter((s) => s !== ""));
  const unknown = [...picked].filter((s) => !provider.scopes.includes(s));
  if (unknown.length > 0) {
    throw new NexusError(
      "validation_failed",
      `${provider.name} offers no scope ${unknown.map((s) => `'${s.slice(0, 100)}'`).join(", ")} here; pick from: ${provider.scopes.join(" ")}`,
    );
  }
  return provider.scopes.filter((s) => picked.has(s));
}

function settingsRedirect(c: Ctx, query: Record<string, string>): Response {
  return c.redirect(`${AUTHORIZATIONS_PAGE}?${new URLSearchParams(query).toString()}`, 302);
}

export function platformCredentialRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();

  app.get("/providers", async (c) => {
    await member(c, deps);
    return c.json({ providers: platform(deps).accounts.registry.providers.map(providerView) });
  });

  app.get("/my", async (c) => {
    const principal = await member(c, deps);
    const p = platform(deps);
    const accounts = await p.accounts.list(principal.user.id);
    return c.json({
      providers: p.accounts.registry.providers.map((provider) => ({
        ...providerView(provider),
        accounts: accounts.filter((a) => a.provider === provider.id),
      })),
    });
  });

  app.get("/oauth/:provider/authorize", async (c) => {
    const p = platform(deps);
    const provider = providerOf(c, p);
    const principal = await authenticate(c, deps);
    // A connect is a person in a browser: the flow is bound to their session.
    if (principal?.via !== "session") {
      const next = `${AUTHORIZATIONS_PAGE}`;
      return c.redirect(`/signin?next=${encodeURIComponent(next)}`, 302);
    }
    const url = await p.flows.start({
      userId: principal.user.id,
      sessionHash: principal.sessionHash,
      provider,
      scopes: pickedScopes(c, provider),
      redirectUri: callbackUrl(c, provider.id),
    });
    c.header("Cache-Control", "no-store");
    return c.redirect(url, 302);
  });

  app.get("/oauth/:provider/callback", async (c) => {
    const p = platform(deps);
    const provider = providerOf(c, p);
    c.header("Cache-Control", "no-store");
    const denied = c.req.query("error");
    if (denied !== undefined) {
      return settingsRedirect(c, {
        provider: provider.id,
        error: "provider_denied",
        message: `${provider.name} did not grant access (${denied.slice(0, 100)})`,
      });
    }
    const principal = await authenticate(c, deps);
    const code = c.req.query("code");
    const state = c.req.query("state");
    if (principal?.via !== "session" || code === undefined || state === undefined) {
      return settingsRedirect(c, {
        provider: provider.id,
        error: "state_invalid",
        message:
          principal?.via === "session"
            ? `${provider.name} came back without a code and state; start again`
            : `sign in, then connect ${provider.name} again`,
      });
    }
    try {
      const account = await p.flows.finish({
        userId: principal.user.id,
        sessionHash: principal.sessionHash,
        provider,
        state,
        code,
        redirectUri: callbackUrl(c, provider.id),
      });
      deps.logger.log("info", "oauth account connected", {
        provider: provider.id,
        account_id: account.account_id,
        user_id: principal.user.id,
      });
      return settingsRedirect(c, { provider: provider.id, connected: account.account_id });
    } catch (err) {
      if (!(err instanceof OAuthFlowError) && !(err instanceof NexusError)) throw err;
      const reason = err instanceof OAuthFlowError ? err.reason : err.code;
      deps.logger.log("warn", "oauth connect failed", { provider: provider.id, reason });
      return settingsRedirect(c, { provider: provider.id, error: reason, message: err.message });
    }
  });

  app.put("/my/:provider/accounts/:accountId/default", async (c) => {
    const principal = await member(c, deps);
    const p = platform(deps);
    const provider = providerOf(c, p);
    const accounts = await p.accounts.setDefault(
      principal.user.id,
      provider.id,
      c.req.param("accountId"),
    );
    return c.json({ accounts });
  });

  app.delete("/my/:provider/accounts/:accountId", async (c) => {
    const principal = await member(c, deps);
    const p = platform(deps);
    // A provider the operator removed still lets its accounts go.
    const providerId = c.req.param("provider");
    const result = await p.accounts.disconnect(
      principal.user.id,
      providerId,
      c.req.param("accountId"),
    );
    return c.json({ ...result, accounts: await p.accounts.list(principal.user.id, providerId) });
  });

  return app;
}
