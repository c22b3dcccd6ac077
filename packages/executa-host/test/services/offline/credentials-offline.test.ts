import { CREDENTIALS_ERRORS } from "@anna-ai/app-schema/errors";
import { describe, expect, it } from "vitest";
import type {
  CredentialsGrant,
  CredentialsServiceContext,
} from "../../../src/services/credentials-service.js";
import { createOfflineCredentialsService } from "../../../src/services/offline/credentials-offline.js";
import { T0_MS, expectCatalogError, serviceCtx } from "./helpers.js";

const E = CREDENTIALS_ERRORS;

function ctx(grant: CredentialsGrant = { enabled: true }): CredentialsServiceContext {
  return { ...serviceCtx(), grant };
}

const service = createOfflineCredentialsService({
  clock: () => T0_MS,
  accounts: {
    google: [
      {
        account_id: "acct-work",
        email: "ada@work.example",
        label: "Work",
        access_token: "ya29.work",
      },
      {
        account_id: "acct-home",
        email: "ada@home.example",
        is_default: true,
        scopes: ["gmail.readonly"],
      },
      { account_id: "acct-old", email: "old@example.com", status: "revoked" },
    ],
    github: [],
  },
});

describe("offline credentials", () => {
  it("lists metadata only, with exactly one default per provider", async () => {
    const { accounts } = await service.listAccounts({ provider: "google" }, ctx());
    expect(accounts).toEqual([
      {
        account_id: "acct-work",
        email: "ada@work.example",
        label: "Work",
        is_default: false,
        status: "active",
        scopes: [],
      },
      {
        account_id: "acct-home",
        email: "ada@home.example",
        label: null,
        is_default: true,
        status: "active",
        scopes: ["gmail.readonly"],
      },
      {
        account_id: "acct-old",
        email: "old@example.com",
        label: null,
        is_default: false,
        status: "revoked",
        scopes: [],
      },
    ]);
    expect(JSON.stringify(accounts)).not.toContain("ya29");
  });

  it("makes the first account the default when none is flagged", async () => {
    const one = createOfflineCredentialsService({
      accounts: { slack: [{ account_id: "a" }, { account_id: "b" }] },
    });
    const { accounts } = await one.listAccounts({ provider: "slack" }, ctx());
    expect(accounts.map((a) => a.is_default)).toEqual([true, false]);
  });

  it("hands out the default account's token without account_id, a named one with it", async () => {
    const fresh = await service.getToken({ provider: "google" }, ctx());
    expect(fresh.account_id).toBe("acct-home");
    expect(fresh.access_token).toMatch(/^dev-google-[0-9a-f]{24}$/);
    expect(fresh.expires_at).toBe(new Date(T0_MS + 3600_000).toISOString());
    expect(await service.getToken({ provider: "google", account_id: "acct-work" }, ctx())).toEqual({
      access_token: "ya29.work",
      account_id: "acct-work",
      expires_at: new Date(T0_MS + 3600_000).toISOString(),
    });
  });

  it("refuses a dead credential, an unknown account and an unconnected provider with a reconnect hint", async () => {
    const dead = await expectCatalogError(
      service.getToken({ provider: "google", account_id: "acct-old" }, ctx()),
      E.NOT_GRANTED,
      /is revoked; reconnect the account at \/settings\/authorizations/,
    );
    expect(dead.data).toMatchObject({ hint: expect.stringMatching(/reconnect/) });
    await expectCatalogError(
      service.getToken({ provider: "google", account_id: "acct-nope" }, ctx()),
      E.NOT_GRANTED,
      /pick one from credentials\/listAccounts/,
    );
    await expectCatalogError(
      service.listAccounts({ provider: "github" }, ctx()),
      E.NOT_GRANTED,
      /no github account is connected/,
    );
  });

  it("refuses an email where an account id belongs", async () => {
    await expectCatalogError(
      service.getToken({ provider: "google", account_id: "ada@home.example" }, ctx()),
      E.INVALID_REQUEST,
      /looks like an email; pass the account_id/,
    );
  });

  it("holds callers to their grant: disabled, or a provider outside it", async () => {
    await expectCatalogError(
      service.listAccounts({ provider: "google" }, ctx({ enabled: false })),
      E.NOT_GRANTED,
      /credentials_grant/,
    );
    await expectCatalogError(
      service.getToken({ provider: "google" }, ctx({ enabled: true, providers: ["github"] })),
      E.NOT_GRANTED,
      /provider "google" is not granted \(granted: github\)/,
    );
  });
});
