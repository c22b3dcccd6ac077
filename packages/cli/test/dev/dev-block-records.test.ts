// The checks manifest.dev.credentials and manifest.dev.installed_apps share (dev-block-records.ts),
// through both validators: same paths in the errors, same tolerance of absent keys and nulls.
import { describe, expect, it } from "vitest";
import { devBlockKey } from "../../src/dev/dev-block-records.js";
import { devCredentials } from "../../src/dev/dev-credentials.js";
import { devInstalledApps } from "../../src/dev/dev-installed-apps.js";
import { DevLaunchError } from "../../src/dev/load-app.js";

describe("manifest.dev records", () => {
  it("treats an absent dev block, an absent key and a null key alike", () => {
    for (const dev of [undefined, null, {}, { credentials: null, installed_apps: null }]) {
      expect(devBlockKey(dev, "credentials").raw).toBeUndefined();
      expect(devCredentials(dev)).toEqual({});
      expect(devInstalledApps(dev)).toBeUndefined();
    }
  });

  it("names the entry that is not an object and the id it needs", () => {
    expect(() => devCredentials({ credentials: { google: ["acct-1"] } })).toThrow(
      new DevLaunchError(
        "manifest dev.credentials.google[0] must be an object with a string account_id",
      ),
    );
    expect(() => devInstalledApps({ installed_apps: [["notes"]] })).toThrow(
      new DevLaunchError("manifest dev.installed_apps[0] must be an object with a string slug"),
    );
  });

  it("refuses an empty id and a non-string optional field, naming the field", () => {
    expect(() => devCredentials({ credentials: { google: [{ account_id: "" }] } })).toThrow(
      new DevLaunchError(
        "manifest dev.credentials.google[0].account_id must be a non-empty string",
      ),
    );
    expect(() =>
      devCredentials({ credentials: { google: [{ account_id: "a", email: 7 }] } }),
    ).toThrow(new DevLaunchError("manifest dev.credentials.google[0].email must be a string"));
    expect(() => devInstalledApps({ installed_apps: [{ slug: "notes", icon_url: {} }] })).toThrow(
      new DevLaunchError("manifest dev.installed_apps[0].icon_url must be a string"),
    );
  });

  it("keeps the family's own checks and fills the installed app's defaults", async () => {
    expect(() =>
      devCredentials({ credentials: { google: [{ account_id: "a", scopes: "mail" }] } }),
    ).toThrow(
      new DevLaunchError("manifest dev.credentials.google[0].scopes must be an array of strings"),
    );
    expect(devCredentials({ credentials: { google: [{ account_id: "a", email: null }] } })).toEqual(
      { google: [{ account_id: "a", email: null }] },
    );
    const catalog = devInstalledApps({ installed_apps: [{ slug: "notes", handle: null }] });
    expect(await catalog?.list("1")).toEqual([
      {
        app_id: "notes",
        slug: "notes",
        handle: null,
        name: "notes",
        description: null,
        icon_url: null,
        views: [{ name: "main", default: true }],
      },
    ]);
  });
});
