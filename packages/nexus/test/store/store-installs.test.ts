// Installs on SQLite and PostgreSQL over real HTTP (A35–A37): install gives the user every
// required executa they lack (optional ones not) and counts each user once; re-install converges
// on the new latest version and its executas; uninstall removes only the auto-installed executas
// nothing else needs; another user's installs are untouched; enable/disable and grants reach the
// runtime's catalogue; statuses refuse as documented; cookie writes follow the CSRF rules; PATs
// need `aps:dev`.
import { describe, expect, it } from "vitest";
import { sqlAppCatalog } from "../../src/runtime/sql-app-catalog.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { ORIGIN, harness } from "../helpers/harness.js";
import { hubHttp } from "../helpers/hub-http.js";
import { storeFixture } from "../helpers/store-fixture.js";

useDialectCleanup();

type Row = Record<string, unknown>;
const code = (body: unknown) => (body as { detail: { code: string } }).detail.code;
const message = (body: unknown) => (body as { detail: { message: string } }).detail.message;

describe.each(DIALECTS)("store installs on $name", (d) => {
  const setup = async () => {
    const handle = await d.open();
    const h = harness(handle);
    const http = await hubHttp(h);
    const fx = storeFixture(handle.db, h.stores, h.clock);
    const catalog = sqlAppCatalog(handle.db);
    const as = (pat: string) => ({
      install: (slug: string) => http.call(pat, "POST", `/api/v1/store/apps/${slug}/install`),
      uninstall: (slug: string) => http.call(pat, "DELETE", `/api/v1/store/apps/${slug}/install`),
      apps: async () => (await http.call(pat, "GET", "/api/v1/me/apps")).body as Row[],
      executas: async () =>
        ((await http.call(pat, "GET", "/api/v1/me/executas")).body as Row[])
          .map((e) => `${e.tool_id as string}:${e.source as string}`)
          .sort(),
      patch: (slug: string, body: unknown) =>
        http.call(pat, "PATCH", `/api/v1/me/apps/${slug}`, { body }),
    });
    const installCount = async (slug: string) => {
      const res = await fetch(`${http.url}/api/v1/store/apps/${slug}`);
      return ((await res.json()) as Row).install_count;
    };
    return { h, http, fx, catalog, as, installCount };
  };

  it.skipIf(d.skip)(
    "installs required executas only, converges on re-install, uninstalls what nothing else needs",
    async () => {
      const { http, fx, as, installCount } = await setup();
      const [a, b, c, opt, extra] = await Promise.all(
        ["alpha", "beta", "gamma", "optional", "extra"].map((s) => fx.tool(s)),
      );
      const appId = await fx.app({
        slug: "research",
        versions: [
          {
            version: "1.0.0",
            required: [a!.toolId, b!.toolId, c!.toolId],
            optional: [opt!.toolId],
            frozen: { [a!.toolId]: a!.versionId },
          },
          { version: "1.1.0", required: [a!.toolId, b!.toolId, extra!.toolId], published: false },
        ],
      });
      await fx.app({ slug: "sidekick", versions: [{ version: "1.0.0", required: [b!.toolId] }] });
      const user = await http.developer(null);
      const me = as(user.pat);

      const first = await me.install("research");
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({
        app_id: appId,
        installed_version: "1.0.0",
        previous_version: null,
        executas: {
          installed: [a!.toolId, b!.toolId, c!.toolId],
          already_installed: [],
          unavailable: [],
          removed: [],
        },
        app: {
          slug: "research",
          enabled: true,
          auto_update: true,
          installed_version: "1.0.0",
          update_available: false,
        },
      });
      expect(await me.executas()).toEqual([a, b, c].map((t) => `${t!.toolId}:app`).sort());
      expect(await installCount("research")).toBe(1);

      // Re-running install with nothing new changes nothing and counts nobody twice.
      const again = await me.install("research");
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({
        previous_version: null,
        executas: { installed: [], already_installed: [a!.toolId, b!.toolId, c!.toolId] },
      });
      expect(await installCount("research")).toBe(1);

      // A36: 1.1.0 is released; the user converges on the next install call, not before.
      await fx.release(appId, "1.1.0");
      expect((await me.apps())[0]).toMatchObject({
        installed_version: "1.0.0",
        latest_version: "1.1.0",
        update_available: true,
      });
      const up = await me.install("research");
      expect(up.body).toMatchObject({
        installed_version: "1.1.0",
        previous_version: "1.0.0",
        executas: {
          installed: [extra!.toolId],
          already_installed: [a!.toolId, b!.toolId],
          removed: [c!.toolId],
        },
      });
      expect(await me.executas()).toEqual([a, b, extra].map((t) => `${t!.toolId}:app`).sort());

      // b is also required by sidekick; the user installs `optional` themselves.
      expect((await me.install("sidekick")).status).toBe(201);
      const own = await http.call(user.pat, "PUT", `/api/v1/me/executas/${opt!.toolId}`);
      expect(own.status).toBe(409);
      expect(code(own.body)).toBe("executa_not_installable");
      const pub = await fx.tool("public-one", { visibility: "public" });
      expect((await http.call(user.pat, "PUT", `/api/v1/me/executas/${pub.toolId}`)).status).toBe(
        201,
      );
      // Adopting an auto-installed one makes it the user's: it outlives the app.
      const adopt = await http.call(user.pat, "PUT", `/api/v1/me/executas/${a!.toolId}`);
      expect(adopt.status).toBe(200);
      expect(adopt.body).toMatchObject({ source: "user", source_app: null });

      const gone = await me.uninstall("research");
      expect(gone.status).toBe(200);
      expect(gone.body).toMatchObject({ uninstalled: true, removed_executas: [extra!.toolId] });
      expect(await me.executas()).toEqual(
        [`${a!.toolId}:user`, `${b!.toolId}:app`, `${pub.toolId}:user`].sort(),
      );
      expect((await me.apps()).map((x) => x.slug)).toEqual(["sidekick"]);
      expect(await installCount("research")).toBe(1);
      expect((await me.uninstall("research")).status).toBe(404);

      // A required executa cannot be removed while its app is installed.
      const req = await http.call(user.pat, "DELETE", `/api/v1/me/executas/${b!.toolId}`);
      expect(req.status).toBe(409);
      expect(req.body).toMatchObject({
        detail: { code: "executa_required", required_by: ["sidekick"] },
      });
      expect(
        (await http.call(user.pat, "DELETE", `/api/v1/me/executas/${pub.toolId}`)).status,
      ).toBe(200);

      // Installing again after an uninstall is not a new user for the count.
      expect((await me.install("research")).status).toBe(201);
      expect(await installCount("research")).toBe(1);
    },
  );

  it.skipIf(d.skip)(
    "leaves another user's install untouched and counts each user once",
    async () => {
      const { http, fx, as, installCount } = await setup();
      const t = await fx.tool("shared");
      await fx.app({ slug: "common", versions: [{ version: "1.0.0", required: [t.toolId] }] });
      const ann = as((await http.developer(null)).pat);
      const bob = as((await http.developer(null)).pat);
      expect((await ann.install("common")).status).toBe(201);
      expect((await bob.install("common")).status).toBe(201);
      expect(await installCount("common")).toBe(2);
      expect((await ann.patch("common", { enabled: false })).status).toBe(200);
      expect((await ann.uninstall("common")).status).toBe(200);
      expect(await ann.executas()).toEqual([]);
      expect(await bob.executas()).toEqual([`${t.toolId}:app`]);
      expect((await bob.apps())[0]).toMatchObject({ slug: "common", enabled: true });
    },
  );

  it.skipIf(d.skip)("enable/disable and grants reach the runtime's app catalogue", async () => {
    const { http, fx, as, catalog } = await setup();
    const appId = await fx.app({
      slug: "webby",
      versions: [{ version: "1.0.0", manifest: { permissions: ["storage.read"] } }],
    });
    const user = await http.developer(null);
    const me = as(user.pat);
    await me.install("webby");
    const resolve = () =>
      catalog.apps.resolve({ userId: String(user.userId), appId: String(appId) });
    expect(await resolve()).toMatchObject({ versionId: "1.0.0" });

    const grants = () => http.call(user.pat, "GET", `/api/v1/apps/${appId}/grants`);
    expect((await grants()).body).toMatchObject({
      installed: true,
      enabled: true,
      web_grant: null,
      requested: { permissions: ["storage.read"] },
    });
    const set = await me.patch("webby", {
      web_grant: { enabled: true, allowSearch: true },
      credentials_grant: { enabled: true, providers: ["github"] },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ web_grant: { enabled: true, allowSearch: true } });
    expect(
      await catalog.grants.grants({
        userId: String(user.userId),
        appId: String(appId),
        versionId: "1.0.0",
      }),
    ).toEqual({
      webGrant: { enabled: true, allowSearch: true },
      credentialsGrant: { enabled: true, providers: ["github"] },
    });
    expect((await grants()).body).toMatchObject({ credentials_grant: { providers: ["github"] } });
    await me.patch("webby", { web_grant: null });
    expect(
      await catalog.grants.grants({
        userId: String(user.userId),
        appId: String(appId),
        versionId: "1.0.0",
      }),
    ).toEqual({
      credentialsGrant: { enabled: true, providers: ["github"] },
    });

    expect((await me.patch("webby", { enabled: false })).body).toMatchObject({ enabled: false });
    expect(await resolve()).toBeUndefined();
    expect(await catalog.installedApps.list(String(user.userId))).toEqual([]);
    await me.patch("webby", { enabled: true, auto_update: false });
    expect(await resolve()).toMatchObject({ versionId: "1.0.0" });
    expect((await me.apps())[0]).toMatchObject({ auto_update: false });

    for (const bad of [{}, { enabled: "yes" }, { web_grant: { enabeld: true } }, { slug: "x" }]) {
      const res = await me.patch("webby", bad);
      expect([JSON.stringify(bad), res.status, code(res.body)]).toEqual([
        JSON.stringify(bad),
        400,
        "validation_failed",
      ]);
    }
    expect((await me.patch("not-mine", { enabled: false })).status).toBe(404);
    // A stranger's grants view of a listed app says "not installed"; an unlisted draft is hidden.
    const stranger = await http.developer(null);
    expect(
      (await http.call(stranger.pat, "GET", `/api/v1/apps/${appId}/grants`)).body,
    ).toMatchObject({ installed: false, web_grant: null });
    const draft = await fx.app({
      slug: "secret",
      status: "DRAFT",
      versions: [{ version: "1.0.0", published: false }],
    });
    expect((await http.call(stranger.pat, "GET", `/api/v1/apps/${draft}/grants`)).status).toBe(404);
  });

  it.skipIf(d.skip)("refuses by status; archived installs keep working", async () => {
    const { http, fx, as, catalog } = await setup();
    const owner = await http.developer("studio");
    await fx.app({
      slug: "drafty",
      status: "DRAFT",
      ownerId: owner.userId,
      versions: [{ version: "1.0.0", published: false }],
    });
    await fx.app({
      slug: "approved-empty",
      status: "APPROVED",
      versions: [{ version: "1.0.0", published: false }],
    });
    await fx.app({ slug: "approved-ok", status: "APPROVED" });
    const archivedId = await fx.app({ slug: "old-app" });
    const user = await http.developer(null);
    const me = as(user.pat);

    const stranger = await me.install("drafty");
    expect([stranger.status, code(stranger.body)]).toEqual([404, "not_found"]);
    const own = await as(owner.pat).install("drafty");
    expect([own.status, code(own.body)]).toEqual([409, "app_not_installable"]);
    expect(message(own.body)).toMatch(/DRAFT; only PUBLISHED or APPROVED/);
    const none = await me.install("approved-empty");
    expect([none.status, code(none.body)]).toEqual([409, "no_published_version"]);
    expect((await me.install("approved-ok")).status).toBe(201);

    expect((await me.install("old-app")).status).toBe(201);
    await fx.setStatus(archivedId, "ARCHIVED");
    const late = await as((await http.developer(null)).pat).install("old-app");
    expect(late.status).toBe(404);
    const again = await me.install("old-app");
    expect([again.status, code(again.body)]).toEqual([409, "app_not_installable"]);
    expect(message(again.body)).toMatch(/archived.*your installed 1\.0\.0 keeps working/);
    expect((await me.apps()).find((a) => a.slug === "old-app")).toMatchObject({
      status: "ARCHIVED",
      update_available: false,
    });
    expect(
      await catalog.apps.resolve({ userId: String(user.userId), appId: String(archivedId) }),
    ).toMatchObject({ versionId: "1.0.0" });
    expect((await http.call(user.pat, "GET", "/api/v1/store/apps/old-app")).status).toBe(200);
    expect((await me.install("no-such-app")).status).toBe(404);
  });

  it.skipIf(d.skip)(
    "needs a user; cookie writes follow the CSRF rules; PATs need aps:dev",
    async () => {
      const { h, http, fx } = await setup();
      await fx.app({ slug: "guarded" });
      const path = "/api/v1/store/apps/guarded/install";
      const anon = await h.req("POST", path);
      expect([anon.status, code(await anon.json())]).toEqual([401, "unauthenticated"]);
      expect((await h.req("GET", "/api/v1/me/apps")).status).toBe(401);

      const cookie = await h.signup("shopper@example.com");
      const evil = await h.req("POST", path, {
        cookie,
        headers: { origin: "https://evil.example" },
      });
      expect([evil.status, code(await evil.json())]).toEqual([403, "csrf_rejected"]);
      const cross = await h.req("DELETE", path, {
        cookie,
        headers: { "sec-fetch-site": "cross-site" },
      });
      expect(cross.status).toBe(403);
      const patch = await h.req("PATCH", "/api/v1/me/apps/guarded", {
        cookie,
        body: { enabled: false },
        headers: { origin: "https://evil.example" },
      });
      expect(patch.status).toBe(403);
      const ok = await h.req("POST", path, {
        cookie,
        headers: { origin: ORIGIN, "sec-fetch-site": "same-origin" },
      });
      expect(ok.status).toBe(201);
      expect(
        ((await (await h.req("GET", "/api/v1/me/apps", { cookie })).json()) as Row[]).map(
          (a) => a.slug,
        ),
      ).toEqual(["guarded"]);

      const narrow = await http.developer(null, ["executas:publish"]);
      const refused = await http.call(narrow.pat, "POST", path);
      expect([refused.status, code(refused.body)]).toEqual([403, "missing_scope"]);
      const bad = await http.call("anna_pat_nope", "POST", path);
      expect(bad.status).toBe(401);
    },
  );
});
