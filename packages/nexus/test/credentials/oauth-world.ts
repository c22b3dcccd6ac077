// What the connected-account tests share: the fake OAuth provider configured as the generic
// provider `acme` through the same ANNA_OAUTH_* variables an operator sets, the connected-account
// store and flows under a random KEK, a harness serving them, and `connect`, which walks the
// browser's redirects: Nexus's authorize → the provider → Nexus's callback → the settings page.
import { randomBytes } from "node:crypto";
import { onTestFinished } from "vitest";
import { manualClock } from "../../src/core/clock.js";
import { memoryLogger } from "../../src/core/logger.js";
import { openPlatformCredentials } from "../../src/credentials/open-platform-credentials.js";
import { OAuthRegistry, oauthProvidersFromEnv } from "../../src/credentials/oauth-providers.js";
import type { DatabaseHandle } from "../../src/db/connect.js";
import { kekFromBytes } from "../../src/tokens/key-encryption.js";
import {
  type FakeAccount,
  type FakeOAuthProvider,
  fakeProviderEnv,
  startFakeOAuthProvider,
} from "../helpers/fake-oauth-provider.js";
import { harness } from "../helpers/harness.js";

export const ACME = "acme";
export const ACME_CREDENTIAL = "ACME_ACCESS_TOKEN";

export function acmeEnv(fake: FakeOAuthProvider): NodeJS.ProcessEnv {
  return fakeProviderEnv(fake, {
    id: ACME,
    name: "Acme",
    scopes: "profile mail.read mail.send offline",
    credentialNames: ACME_CREDENTIAL,
  });
}

export async function oauthWorld(handle: DatabaseHandle) {
  const fake = await startFakeOAuthProvider();
  onTestFinished(() => fake.close());
  const registry = new OAuthRegistry(oauthProvidersFromEnv(acmeEnv(fake)));
  const kek = kekFromBytes(randomBytes(32), "test");
  const clock = manualClock(Date.now());
  const logger = memoryLogger();
  const { accounts, flows } = openPlatformCredentials({
    db: handle.db,
    kek,
    clock,
    registry,
    logger,
  });
  const h = harness(handle, {}, { clock, platformCredentials: { accounts, flows } });

  /** The redirect chain of a connect; returns where the callback sent the browser. */
  async function connect(cookie: string, as?: FakeAccount, query = ""): Promise<URL> {
    if (as !== undefined) fake.nextAccount = as;
    const start = await h.req(
      "GET",
      `/api/v1/platform-credentials/oauth/${ACME}/authorize${query}`,
      {
        cookie,
      },
    );
    if (start.status !== 302)
      throw new Error(`authorize answered ${start.status}: ${await start.text()}`);
    const atProvider = await fetch(start.headers.get("location")!, { redirect: "manual" });
    if (atProvider.status !== 302) {
      throw new Error(`the provider answered ${atProvider.status}: ${await atProvider.text()}`);
    }
    const callback = new URL(atProvider.headers.get("location")!);
    return landing(await h.req("GET", callback.pathname + callback.search, { cookie }));
  }

  return { fake, registry, accounts, flows, h, kek, clock, logger, connect };
}

/** Where a redirect answer sends the browser (relative to the harness's origin). */
export function landing(res: Response): URL {
  if (res.status !== 302) throw new Error(`expected a redirect, got ${res.status}`);
  return new URL(res.headers.get("location")!, "http://127.0.0.1:8080");
}

export const ADA_WORK: FakeAccount = {
  sub: "acct-ada-work",
  email: "ada@work.example",
  name: "Ada (work)",
};
export const ADA_HOME: FakeAccount = {
  sub: "acct-ada-home",
  email: "ada@home.example",
  name: "Ada (home)",
};
