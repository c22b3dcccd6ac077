// The grant policy of the server's plugins on SQLite and PostgreSQL: the declared families come
// with the spec defaults, credentials/* for every user of the server (no user grant, L9766: the
// router mints for the declared providers), and web only for an invoke an app started, from that
// user's `user_apps.web_grant` on that app, by app id or slug.
import { WEB_GRANT_ALL } from "@anna-ai/executa-host";
import { describe, expect, it } from "vitest";
import { manualClock } from "../../src/core/clock.js";
import { nexusGrantPolicy } from "../../src/executas/grant-policy.js";
import { installApp } from "../../src/runtime/app-catalog-writes.js";
import { sqlStores } from "../../src/stores/sql-stores.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { storeFixture } from "../helpers/store-fixture.js";

useDialectCleanup();

describe.each(DIALECTS)("the plugin grant policy on $name", (d) => {
  it.skipIf(d.skip)(
    "grants declared families and credentials by default, and web from the app's grant",
    async () => {
      const db = await d.open();
      const clock = manualClock();
      const stores = sqlStores(db.db);
      const fixture = storeFixture(db.db, stores, clock);
      const granted = await fixture.app({ slug: "granted-app" });
      const plain = await fixture.app({ slug: "plain-app" });
      const user = await stores.users.create(
        { email: "grants@example.com", passwordHash: "x", isVerified: true, handle: null },
        clock.now(),
      );
      const other = await stores.users.create(
        { email: "other@example.com", passwordHash: "x", isVerified: true, handle: null },
        clock.now(),
      );
      await installApp(
        db.db,
        {
          userId: user.id,
          appId: granted,
          version: "1.0.0",
          webGrant: WEB_GRANT_ALL,
          credentialsGrant: { enabled: true, providers: ["google"] },
        },
        clock.now(),
      );
      await installApp(
        db.db,
        { userId: user.id, appId: plain, version: "1.0.0", webGrant: { enabled: false } },
        clock.now(),
      );
      const policy = nexusGrantPolicy(db.db);
      const me = String(user.id);
      const app = (appId: string | number) => ({
        app: { appId: String(appId), appScopeGranted: false },
      });

      expect(await policy.isGranted(me, "tool-x", "sampling")).toEqual({});
      expect(await policy.isGranted(me, "tool-x", "image")).toEqual({
        generate: true,
        edit: false,
      });
      // Outside an app, nothing reaches the web; the user's accounts are reached as declared.
      expect(await policy.isGranted(me, "tool-x", "web")).toBeUndefined();
      expect(await policy.isGranted(me, "tool-x", "credentials")).toEqual({});
      expect(await policy.isGranted("nexus-describe", "tool-x", "credentials")).toBeUndefined();

      expect(await policy.isGranted(me, "tool-x", "web", app(granted))).toEqual(WEB_GRANT_ALL);
      expect(await policy.isGranted(me, "tool-x", "web", app("granted-app"))).toEqual(
        WEB_GRANT_ALL,
      );
      // An app's credentials_grant is for its window's credentials.* (L11338), not its plugins.
      expect(await policy.isGranted(me, "tool-x", "credentials", app(granted))).toEqual({});
      // A disabled grant, an app without one, another user, an app they never installed.
      expect(await policy.isGranted(me, "tool-x", "web", app(plain))).toBeUndefined();
      expect(await policy.isGranted(me, "tool-x", "credentials", app(plain))).toEqual({});
      expect(
        await policy.isGranted(String(other.id), "tool-x", "web", app(granted)),
      ).toBeUndefined();
      expect(
        await policy.isGranted("nexus-describe", "tool-x", "web", app(granted)),
      ).toBeUndefined();
      expect(await policy.isGranted(me, "tool-x", "web", app("no-such-app"))).toBeUndefined();
    },
  );
});
