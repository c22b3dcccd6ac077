// --account as the offline credentials service sees it, and the web/credentials grants of the
// grant flags.
import { describe, expect, it } from "vitest";
import { ExitError } from "../../src/cli/exit-error.js";
import { parseAccountFlags } from "../../src/executa-dev/account-flags.js";
import { parseGrantFlags } from "../../src/executa-dev/grant-flags.js";

describe("--account", () => {
  it("groups accounts by provider, in flag order, with their fields", () => {
    expect(
      parseAccountFlags([
        "google=work,email=me@work.example,label=Work",
        "twitter=t1,status=revoked",
        "google=home,default,token=ya29.dev",
      ]),
    ).toEqual({
      google: [
        { account_id: "work", email: "me@work.example", label: "Work" },
        { account_id: "home", is_default: true, access_token: "ya29.dev" },
      ],
      twitter: [{ account_id: "t1", status: "revoked" }],
    });
    expect(parseAccountFlags(undefined)).toEqual({});
  });

  it("exits 2 naming the form for a bad value, an unknown field or a repeated account", () => {
    for (const [value, message] of [
      ["google", /is not <provider>=<account_id>/],
      ["Google=x", /is not <provider>=<account_id>/],
      ["google=", /is not <provider>=<account_id>/],
      [
        "google=a,colour=blue",
        /unknown field 'colour'; use email, label, token, status or default/,
      ],
      ["google=a,email=", /'email=' needs a value/],
    ] as const) {
      expect(() => parseAccountFlags([value]), value).toThrow(ExitError);
      expect(() => parseAccountFlags([value]), value).toThrow(message);
    }
    expect(() => parseAccountFlags(["google=a", "google=a"])).toThrow(/given twice/);
  });
});

describe("grant flags for web and credentials", () => {
  it("grant the full dev web_grant and the credentials token by default", async () => {
    const { policy } = parseGrantFlags({});
    expect(await policy.isGranted("u", "t", "web")).toMatchObject({
      enabled: true,
      allowAdvanced: true,
      allowImageFetch: true,
    });
    expect(await policy.isGranted("u", "t", "credentials")).toEqual({});
  });

  it("--no-grant web,credentials withdraws both", async () => {
    const { policy, granted } = parseGrantFlags({ "no-grant": ["web,credentials"] });
    expect(granted.has("web") || granted.has("credentials")).toBe(false);
    expect(await policy.isGranted("u", "t", "web")).toBeUndefined();
    expect(await policy.isGranted("u", "t", "credentials")).toBeUndefined();
  });
});
