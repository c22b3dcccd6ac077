import { describe, expect, it } from "vitest";
import {
  CredentialsGetTokenParamsSchema,
  CredentialsGetTokenResultSchema,
  CredentialsListAccountsParamsSchema,
  CredentialsListAccountsResultSchema,
} from "../../src/executa/credentials.js";

describe("credentials/*", () => {
  it("requires a provider", () => {
    expect(CredentialsListAccountsParamsSchema.safeParse({ provider: "google" }).success).toBe(
      true,
    );
    expect(CredentialsListAccountsParamsSchema.safeParse({}).success).toBe(false);
    expect(
      CredentialsGetTokenParamsSchema.safeParse({ provider: "google", account_id: null }).success,
    ).toBe(true);
  });

  it("describes accounts and tokens", () => {
    expect(
      CredentialsListAccountsResultSchema.safeParse({
        accounts: [
          {
            account_id: "a",
            email: "x@y",
            label: null,
            is_default: true,
            status: "ok",
            scopes: [],
          },
        ],
      }).success,
    ).toBe(true);
    expect(
      CredentialsGetTokenResultSchema.safeParse({
        access_token: "t",
        account_id: "a",
        expires_at: null,
      }).success,
    ).toBe(true);
    expect(
      CredentialsGetTokenResultSchema.safeParse({ account_id: "a", expires_at: null }).success,
    ).toBe(false);
  });
});
