// The operator's OAuth providers from ANNA_OAUTH_*: none by default, the google and twitter/x
// presets with the real URLs (overridable), generic providers that must give every URL, and an
// error naming the variable for each mistake.
import { describe, expect, it } from "vitest";
import {
  OAUTH_PRESETS,
  OAuthRegistry,
  oauthProvidersFromEnv,
} from "../../src/credentials/oauth-providers.js";

const secrets = (id: string) => ({
  [`ANNA_OAUTH_${id}_CLIENT_ID`]: "id",
  [`ANNA_OAUTH_${id}_CLIENT_SECRET`]: "secret",
});

describe("oauthProvidersFromEnv", () => {
  it("configures nothing by default", () => {
    expect(oauthProvidersFromEnv({})).toEqual([]);
  });

  it("fills the presets with the real endpoints, x being twitter, and lets URLs be overridden", () => {
    const [google, twitter] = oauthProvidersFromEnv({
      ANNA_OAUTH_PROVIDERS: "google, x",
      ...secrets("GOOGLE"),
      ...secrets("X"),
      ANNA_OAUTH_X_TOKEN_URL: "https://proxy.example/token",
    });
    expect(google).toMatchObject({
      id: "google",
      authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
      tokenUrl: "https://oauth2.googleapis.com/token",
      authorizeParams: { access_type: "offline", prompt: "consent select_account" },
      tokenAuth: "body",
    });
    expect(google!.credentialNames).toContain("GMAIL_ACCESS_TOKEN");
    expect(twitter).toMatchObject({
      id: "twitter",
      authorizeUrl: OAUTH_PRESETS.twitter!.authorizeUrl,
      tokenUrl: "https://proxy.example/token",
      tokenAuth: "basic",
      credentialNames: ["TWITTER_ACCESS_TOKEN", "X_ACCESS_TOKEN"],
    });
    const registry = new OAuthRegistry([google!, twitter!]);
    expect(registry.providerForCredential("X_ACCESS_TOKEN")?.id).toBe("twitter");
    expect(registry.providerForCredential("GITHUB_TOKEN")).toBeUndefined();
  });

  it("names the variable that is missing or wrong", () => {
    expect(() => oauthProvidersFromEnv({ ANNA_OAUTH_PROVIDERS: "google" })).toThrow(
      "ANNA_OAUTH_PROVIDERS names google, but ANNA_OAUTH_GOOGLE_CLIENT_ID is not set",
    );
    expect(() =>
      oauthProvidersFromEnv({ ANNA_OAUTH_PROVIDERS: "acme", ...secrets("ACME") }),
    ).toThrow("ANNA_OAUTH_ACME_AUTHORIZE_URL is not set (acme is not a preset: give every URL)");
    expect(() =>
      oauthProvidersFromEnv({
        ANNA_OAUTH_PROVIDERS: "acme",
        ...secrets("ACME"),
        ANNA_OAUTH_ACME_AUTHORIZE_URL: "ftp://acme.example/authorize",
        ANNA_OAUTH_ACME_TOKEN_URL: "https://acme.example/token",
      }),
    ).toThrow("ANNA_OAUTH_ACME_AUTHORIZE_URL must be an https:// URL (got 'ftp:')");
    expect(() =>
      oauthProvidersFromEnv({
        ANNA_OAUTH_PROVIDERS: "google",
        ...secrets("GOOGLE"),
        ANNA_OAUTH_GOOGLE_CREDENTIAL_NAMES: "gmail token",
      }),
    ).toThrow(/'gmail' is not a credential name/);
    expect(() =>
      oauthProvidersFromEnv({ ANNA_OAUTH_PROVIDERS: "x,twitter", ...secrets("X") }),
    ).toThrow("ANNA_OAUTH_PROVIDERS names twitter twice");
    expect(() => oauthProvidersFromEnv({ ANNA_OAUTH_PROVIDERS: "Bad_Id!" })).toThrow(
      /'Bad_Id!' is not a provider id/,
    );
  });
});
