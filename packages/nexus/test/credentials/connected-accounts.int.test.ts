// Connected accounts end to end against a real OAuth provider on 127.0.0.1 (the fake one), on
// SQLite and PostgreSQL: the browser's connect (authorize → provider → callback → listed), the
// callback's state checks, refresh on expiry (one request for concurrent callers), a revoked
// grant surfacing as CREDENTIALS_NOT_GRANTED, two accounts with exactly one default, disconnect
// promoting the other, and another user who can neither see nor use them.
import { CREDENTIALS_ERRORS } from "@anna-ai/app-schema/errors";
import type { CredentialsServiceContext } from "@anna-ai/executa-host";
import { describe, expect, it } from "vitest";
import { platformCredentialsService } from "../../src/credentials/platform-credentials-service.js";
import { OAUTH_FLOW_TTL_MS } from "../../src/credentials/oauth-flows.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { ctxFor } from "../helpers/storage.js";
import { ACME, ADA_HOME, ADA_WORK, landing, oauthWorld } from "./oauth-world.js";

useDialectCleanup();

interface AccountRow {
  account_id: string;
  is_default: boolean;
}
interface MyBody {
  providers: { accounts: AccountRow[] }[];
}

const pluginCtx = (userId: number, providers = [ACME]): CredentialsServiceContext => ({
  ...ctxFor(String(userId), "tool-mail"),
  grant: { enabled: true, providers },
});

async function failure(
  p: Promise<unknown>,
): Promise<{ code?: number; message: string; data?: Record<string, unknown> }> {
  return p.then(
    () => {
      throw new Error("expected a refusal");
    },
    (e: unknown) => e as { code?: number; message: string; data?: Record<string, unknown> },
  );
}

describe.each(DIALECTS)("connected accounts on $name", (d) => {
  it.skipIf(d.skip)(
    "connects an account through the provider and lists it, tokens never shown",
    async () => {
      const handle = await d.open();
      const w = await oauthWorld(handle);
      const cookie = await w.h.signup("ada@example.com");
      const noAuth = await w.h.req("GET", "/api/v1/platform-credentials/my");
      expect(noAuth.status).toBe(401);

      const providers = await (
        await w.h.req("GET", "/api/v1/platform-credentials/providers", { cookie })
      ).json();
      expect(providers).toEqual({
        providers: [
          {
            id: ACME,
            name: "Acme",
            scopes: ["profile", "mail.read", "mail.send", "offline"],
            credential_names: ["ACME_ACCESS_TOKEN"],
          },
        ],
      });

      // Least privilege: the user picks the scopes; one the provider does not offer is refused.
      const bad = await w.h.req(
        "GET",
        `/api/v1/platform-credentials/oauth/${ACME}/authorize?scope=admin`,
        { cookie },
      );
      expect(bad.status).toBe(400);
      expect(await bad.text()).toMatch(/offers no scope 'admin'.*pick from: profile mail.read/);

      const landed = await w.connect(cookie, ADA_WORK, "?scope=profile%20mail.read");
      expect(landed.pathname).toBe("/settings/authorizations");
      expect(landed.searchParams.get("connected")).toBe(ADA_WORK.sub);

      const my = (await (
        await w.h.req("GET", "/api/v1/platform-credentials/my", { cookie })
      ).json()) as MyBody;
      expect(my.providers[0]!.accounts).toEqual([
        expect.objectContaining({
          provider: ACME,
          account_id: ADA_WORK.sub,
          email: ADA_WORK.email,
          label: ADA_WORK.name,
          is_default: true,
          status: "active",
          scopes: ["profile", "mail.read"],
        }),
      ]);
      const text = JSON.stringify(my);
      expect(text).not.toContain(w.fake.accessTokenOf(ADA_WORK.sub)!);
      for (const rt of w.fake.refreshTokens()) {
        expect(text).not.toContain(rt);
        expect(w.h.logs.join("\n")).not.toContain(rt);
      }
      // Sealed at rest: the database holds no token in clear.
      const rows = JSON.stringify(
        await handle.db.selectFrom("connected_accounts").selectAll().execute(),
      );
      expect(rows).not.toContain(w.fake.accessTokenOf(ADA_WORK.sub)!);
      for (const rt of w.fake.refreshTokens()) expect(rows).not.toContain(rt);
    },
  );

  it.skipIf(d.skip)(
    "refuses a callback in another session, a reused state, a late one and a denial",
    async () => {
      const handle = await d.open();
      const w = await oauthWorld(handle);
      const ada = await w.h.signup("ada@example.com");
      const eve = await w.h.signup("eve@example.com");
      const start = await w.h.req("GET", `/api/v1/platform-credentials/oauth/${ACME}/authorize`, {
        cookie: ada,
      });
      const authorizeUrl = new URL(start.headers.get("location")!);
      expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");
      expect(authorizeUrl.searchParams.get("redirect_uri")).toBe(
        "http://127.0.0.1:8080/api/v1/platform-credentials/oauth/acme/callback",
      );
      const back = new URL(
        (await fetch(authorizeUrl, { redirect: "manual" })).headers.get("location")!,
      );
      const callback = back.pathname + back.search;

      // Eve's browser cannot finish Ada's flow (login CSRF), and the state is then used up.
      const stolen = landing(await w.h.req("GET", callback, { cookie: eve }));
      expect(stolen.searchParams.get("error")).toBe("state_invalid");
      expect(stolen.searchParams.get("message")).toMatch(/started in another session/);
      const replay = landing(await w.h.req("GET", callback, { cookie: ada }));
      expect(replay.searchParams.get("message")).toMatch(/unknown or was already used/);

      // A flow older than its TTL.
      const late = await w.h.req("GET", `/api/v1/platform-credentials/oauth/${ACME}/authorize`, {
        cookie: ada,
      });
      const lateBack = new URL(
        (await fetch(late.headers.get("location")!, { redirect: "manual" })).headers.get(
          "location",
        )!,
      );
      w.clock.advance(OAUTH_FLOW_TTL_MS + 1);
      const expired = landing(
        await w.h.req("GET", lateBack.pathname + lateBack.search, { cookie: ada }),
      );
      expect(expired.searchParams.get("message")).toMatch(/took longer than 10 minutes/);

      w.fake.deny = true;
      const denied = await w.connect(ada);
      expect(denied.searchParams.get("message")).toMatch(
        /Acme did not grant access \(access_denied\)/,
      );
      expect(denied.searchParams.get("error")).toBe("provider_denied");
      expect(w.fake.counts.authorization_code).toBe(0);
      expect(await handle.db.selectFrom("connected_accounts").selectAll().execute()).toEqual([]);

      // Anonymous: the connect starts with signing in.
      const anon = landing(
        await w.h.req("GET", `/api/v1/platform-credentials/oauth/${ACME}/authorize`),
      );
      expect(anon.pathname).toBe("/signin");
      const unknown = await w.h.req("GET", "/api/v1/platform-credentials/oauth/nope/authorize", {
        cookie: ada,
      });
      expect(unknown.status).toBe(404);
      expect(await unknown.text()).toMatch(
        /no provider 'nope' on this server \(configured: acme\)/,
      );
    },
  );

  it.skipIf(d.skip)(
    "refreshes an expired token once for concurrent callers, and a revoked grant is NOT_GRANTED",
    async () => {
      const handle = await d.open();
      const w = await oauthWorld(handle);
      const cookie = await w.h.signup("ada@example.com");
      await w.connect(cookie, ADA_WORK);
      const userId = (await w.h.stores.users.findCredentials("ada@example.com"))!.user.id;
      const service = platformCredentialsService(w.accounts);

      const first = await service.getToken({ provider: ACME }, pluginCtx(userId));
      expect(first.access_token).toBe(w.fake.accessTokenOf(ADA_WORK.sub));
      expect(first.account_id).toBe(ADA_WORK.sub);
      expect(w.fake.counts.refresh_token).toBe(0);

      // Expired: three callers at once share one refresh request.
      w.clock.advance(3600 * 1000);
      w.fake.refreshDelayMs = 100;
      const three = await Promise.all(
        [1, 2, 3].map(() => service.getToken({ provider: ACME }, pluginCtx(userId))),
      );
      expect(w.fake.counts.refresh_token).toBe(1);
      const fresh = w.fake.accessTokenOf(ADA_WORK.sub)!;
      expect(fresh).not.toBe(first.access_token);
      expect(three.map((t) => t.access_token)).toEqual([fresh, fresh, fresh]);
      expect(Date.parse(three[0]!.expires_at!)).toBe(w.clock.now() + 3600 * 1000);
      // Sealed at rest: the row holds neither token in clear.
      const row = await handle.db
        .selectFrom("connected_accounts")
        .selectAll()
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(fresh);
      for (const rt of w.fake.refreshTokens()) expect(JSON.stringify(row)).not.toContain(rt);

      // The user revokes the app at the provider: the next refresh is refused.
      w.fake.revokeAccount(ADA_WORK.sub);
      w.clock.advance(3600 * 1000);
      const dead = await failure(service.getToken({ provider: ACME }, pluginCtx(userId)));
      expect(dead.code).toBe(CREDENTIALS_ERRORS.NOT_GRANTED.code);
      expect(dead.data?.errorCode).toBe("CREDENTIALS_NOT_GRANTED");
      expect(dead.message).toMatch(
        /refused to refresh .*invalid_grant.*reconnect the account at \/settings\/authorizations/,
      );
      const listed = await service.listAccounts({ provider: ACME }, pluginCtx(userId));
      expect(listed.accounts[0]).toMatchObject({
        account_id: ADA_WORK.sub,
        status: "needs_reauth",
      });
      // Dead stays dead without asking the provider again, until the user reconnects.
      await failure(service.getToken({ provider: ACME }, pluginCtx(userId)));
      expect(w.fake.counts.refresh_token).toBe(2);
      await w.connect(cookie, ADA_WORK);
      const back = await service.getToken({ provider: ACME }, pluginCtx(userId));
      expect(back.access_token).toBe(w.fake.accessTokenOf(ADA_WORK.sub));

      // A provider outside the token's claim, and an email where an account id belongs.
      const outside = await failure(
        service.listAccounts({ provider: "google" }, pluginCtx(userId)),
      );
      expect(outside.code).toBe(-32061);
      expect(outside.message).toMatch(/provider "google" is not covered \(covered: acme\)/);
      const email = await failure(
        service.getToken({ provider: ACME, account_id: "ada@work.example" }, pluginCtx(userId)),
      );
      expect(email.code).toBe(CREDENTIALS_ERRORS.INVALID_REQUEST.code);
      expect(w.logger.lines.join("\n")).not.toContain(back.access_token);
    },
  );

  it.skipIf(d.skip)(
    "keeps exactly one default among two accounts, and another user sees none",
    async () => {
      const handle = await d.open();
      const w = await oauthWorld(handle);
      const ada = await w.h.signup("ada@example.com");
      const eve = await w.h.signup("eve@example.com");
      await w.connect(ada, ADA_WORK);
      await w.connect(ada, ADA_HOME);
      const adaId = (await w.h.stores.users.findCredentials("ada@example.com"))!.user.id;
      const eveId = (await w.h.stores.users.findCredentials("eve@example.com"))!.user.id;
      const service = platformCredentialsService(w.accounts);

      const listed = await service.listAccounts({ provider: ACME }, pluginCtx(adaId));
      expect(listed.accounts.map((a) => [a.account_id, a.is_default])).toEqual([
        [ADA_WORK.sub, true],
        [ADA_HOME.sub, false],
      ]);
      expect(JSON.stringify(listed)).not.toMatch(/at_|rt_/);
      const home = await service.getToken(
        { provider: ACME, account_id: ADA_HOME.sub },
        pluginCtx(adaId),
      );
      expect(home.access_token).toBe(w.fake.accessTokenOf(ADA_HOME.sub));
      expect((await service.getToken({ provider: ACME }, pluginCtx(adaId))).account_id).toBe(
        ADA_WORK.sub,
      );

      const path = (sub: string) => `/api/v1/platform-credentials/my/${ACME}/accounts/${sub}`;
      const switched = await w.h.req("PUT", `${path(ADA_HOME.sub)}/default`, { cookie: ada });
      expect(switched.status).toBe(200);
      expect(
        ((await switched.json()) as { accounts: AccountRow[] }).accounts.map((a) => a.is_default),
      ).toEqual([false, true]);
      expect((await service.getToken({ provider: ACME }, pluginCtx(adaId))).account_id).toBe(
        ADA_HOME.sub,
      );

      // Eve: nothing listed, Ada's accounts cannot be made default, disconnected or used.
      const eveMy = (await (
        await w.h.req("GET", "/api/v1/platform-credentials/my", { cookie: eve })
      ).json()) as MyBody;
      expect(eveMy.providers[0]!.accounts).toEqual([]);
      expect((await w.h.req("PUT", `${path(ADA_WORK.sub)}/default`, { cookie: eve })).status).toBe(
        404,
      );
      expect((await w.h.req("DELETE", path(ADA_WORK.sub), { cookie: eve })).status).toBe(404);
      const theirs = await failure(
        service.getToken({ provider: ACME, account_id: ADA_WORK.sub }, pluginCtx(eveId)),
      );
      expect(theirs.code).toBe(-32061);
      expect(theirs.message).toMatch(/no Acme account is connected/);

      // A cross-site write with Ada's cookie is refused before it reaches the route.
      const csrf = await w.h.req("DELETE", path(ADA_HOME.sub), {
        cookie: ada,
        headers: { origin: "https://evil.example" },
      });
      expect(csrf.status).toBe(403);

      // Disconnecting the default revokes it upstream and promotes the earliest other account.
      const gone = await w.h.req("DELETE", path(ADA_HOME.sub), { cookie: ada });
      expect(gone.status).toBe(200);
      const body = (await gone.json()) as { revoked: boolean; accounts: AccountRow[] };
      expect(body.revoked).toBe(true);
      expect(body.accounts.map((a) => [a.account_id, a.is_default])).toEqual([
        [ADA_WORK.sub, true],
      ]);
      expect(w.fake.counts.revoke).toBe(1);
      expect(w.fake.accessTokenOf(ADA_HOME.sub)).toBeUndefined();
      const defaults = await handle.db
        .selectFrom("connected_accounts")
        .select("account_id")
        .where("is_default", "=", 1)
        .execute();
      expect(defaults).toEqual([{ account_id: ADA_WORK.sub }]);
    },
  );
});
