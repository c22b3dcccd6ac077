// credentials.* (R151): the manifest's provider list (permission_denied), the user's
// credentials_grant and dead credentials (APP_NOT_GRANTED), metadata-only listings.
import { createOfflineCredentialsService } from "@anna-ai/executa-host";
import { describe, expect, it } from "vitest";
import { createJsonlRecorder } from "../../src/index.js";
import { openDispatcher } from "../helpers.js";

const credentials = createOfflineCredentialsService({
  accounts: {
    google: [
      { account_id: "acct-1", email: "ada@example.com", access_token: "ya29.secret" },
      { account_id: "acct-2", status: "needs_reauth" },
    ],
    github: [{ account_id: "gh-1" }],
  },
});

describe("credentials.*", () => {
  it("lists accounts without tokens and hands out the default account's token", async () => {
    const { dispatcher, token } = await openDispatcher(
      { credentials: ["google"] },
      { services: { credentials }, credentialsGrant: { enabled: true } },
    );
    const listed = await dispatcher.call(token, "credentials", "list_accounts", {
      provider: "google",
    });
    expect(listed).toMatchObject({
      ok: true,
      result: { accounts: [{ account_id: "acct-1", is_default: true }, { account_id: "acct-2" }] },
    });
    expect(JSON.stringify(listed)).not.toContain("ya29");
    expect(
      await dispatcher.call(token, "credentials", "get_token", { provider: "google" }),
    ).toMatchObject({
      ok: true,
      result: { access_token: "ya29.secret", account_id: "acct-1", expires_at: expect.any(String) },
    });
  });

  it("never writes an access token into the session recording", async () => {
    const lines: string[] = [];
    const { dispatcher, token } = await openDispatcher(
      { credentials: ["google"] },
      {
        services: { credentials },
        credentialsGrant: { enabled: true },
        recorder: createJsonlRecorder({ write: (line) => lines.push(line) }),
      },
    );
    const answer = await dispatcher.call(token, "credentials", "get_token", { provider: "google" });
    expect(answer).toMatchObject({ ok: true, result: { access_token: "ya29.secret" } });
    const res = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((r) => r.kind === "res");
    expect(res).toMatchObject({
      ok: true,
      result: { access_token: "[REDACTED]", account_id: "acct-1" },
    });
    expect(lines.join("\n")).not.toContain("ya29.secret");
  });

  it("refuses a provider the manifest does not declare with permission_denied", async () => {
    const { dispatcher, token } = await openDispatcher(
      { credentials: ["google"] },
      { services: { credentials }, credentialsGrant: { enabled: true } },
    );
    expect(
      await dispatcher.call(token, "credentials", "get_token", { provider: "github" }),
    ).toMatchObject({
      ok: false,
      error: {
        code: "permission_denied",
        message: expect.stringContaining("ui.host_api.credentials"),
      },
    });
  });

  it("answers APP_NOT_GRANTED without the user's grant, and for a dead credential with a reconnect hint", async () => {
    const ungranted = await openDispatcher(
      { credentials: ["google"] },
      { services: { credentials } },
    );
    expect(
      await ungranted.dispatcher.call(ungranted.token, "credentials", "list_accounts", {
        provider: "google",
      }),
    ).toMatchObject({ ok: false, error: { code: "APP_NOT_GRANTED" } });

    const { dispatcher, token } = await openDispatcher(
      { credentials: ["google"] },
      { services: { credentials }, credentialsGrant: { enabled: true } },
    );
    expect(
      await dispatcher.call(token, "credentials", "get_token", {
        provider: "google",
        account_id: "acct-2",
      }),
    ).toMatchObject({
      ok: false,
      error: {
        code: "APP_NOT_GRANTED",
        details: {
          errorCode: "CREDENTIALS_NOT_GRANTED",
          hint: expect.stringContaining("reconnect"),
        },
      },
    });
  });

  it("narrows to the grant's providers when the user picked some", async () => {
    const { dispatcher, token } = await openDispatcher(
      { credentials: ["google", "github"] },
      { services: { credentials }, credentialsGrant: { enabled: true, providers: ["github"] } },
    );
    expect(
      await dispatcher.call(token, "credentials", "get_token", { provider: "github" }),
    ).toMatchObject({
      ok: true,
    });
    expect(
      await dispatcher.call(token, "credentials", "get_token", { provider: "google" }),
    ).toMatchObject({
      ok: false,
      error: { code: "APP_NOT_GRANTED" },
    });
  });

  it("closes the namespace on an empty provider list and checks argument shapes", async () => {
    const closed = await openDispatcher({ credentials: [] }, { services: { credentials } });
    expect(
      await closed.dispatcher.call(closed.token, "credentials", "list_accounts", {
        provider: "google",
      }),
    ).toMatchObject({ ok: false, error: { code: "permission_denied" } });
    const { dispatcher, token } = await openDispatcher(
      { credentials: ["google"] },
      { services: { credentials }, credentialsGrant: { enabled: true } },
    );
    expect(await dispatcher.call(token, "credentials", "get_token", {})).toMatchObject({
      ok: false,
      error: { code: "invalid_arg", details: { issues: [{ path: "provider" }] } },
    });
  });
});
