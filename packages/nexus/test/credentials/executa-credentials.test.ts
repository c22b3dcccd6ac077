// Executa credentials over HTTP on SQLite and PostgreSQL: a user sees which declared fields are
// set (never a value), sets them validated against the declaration (unknown names refused with
// the declared ones, sizes bounded), clears them; the pool's hook returns exactly the declared
// values; another user can neither read nor use them; the database holds them sealed, so neither
// the SQLite file nor a PostgreSQL row nor the logs contain a value in clear.
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { ORIGIN, detail } from "../helpers/harness.js";
import { credentialWorld } from "./credential-fixture.js";

useDialectCleanup();

const SECRET = "sk_live_0123456789abcdef-never-in-clear";
const path = (toolId: string) => `/api/v1/me/executas/${toolId}/credentials`;

describe.each(DIALECTS)("executa credentials on $name", (d) => {
  const setup = async () => {
    const handle = await d.open();
    const world = await credentialWorld(handle);
    const { h, tool } = world;
    const ada = await h.signup(`ada-${tool.toolId}@example.com`);
    const install = await h.req("PUT", `/api/v1/me/executas/${tool.toolId}`, { cookie: ada });
    expect(install.status, await install.clone().text()).toBe(201);
    const adaId = (await h.stores.users.findCredentials(`ada-${tool.toolId}@example.com`))!.user.id;
    return { ...world, handle, ada, adaId };
  };

  it.skipIf(d.skip)(
    "shows the declared fields, sets and clears them, never answers a value",
    async () => {
      const { h, tool, ada, adaId, vault } = await setup();
      const before = await h.req("GET", path(tool.toolId), { cookie: ada });
      expect(before.status).toBe(200);
      expect(await before.json()).toEqual({
        tool_id: tool.toolId,
        complete: false,
        credentials: [
          {
            name: "WEATHER_API_KEY",
            display_name: "OpenWeatherMap API Key",
            description: null,
            required: true,
            sensitive: true,
            default: null,
            is_set: false,
            updated_at: null,
          },
          {
            name: "WEATHER_UNITS",
            display_name: "WEATHER_UNITS",
            description: null,
            required: false,
            sensitive: false,
            default: "metric",
            is_set: false,
            updated_at: null,
          },
        ],
      });

      const put = await h.req("PUT", path(tool.toolId), {
        cookie: ada,
        body: { values: { WEATHER_API_KEY: SECRET, WEATHER_UNITS: "imperial" } },
      });
      const putText = await put.text();
      expect(put.status, putText).toBe(200);
      expect(putText).not.toContain(SECRET);
      expect(putText).not.toContain("imperial");
      const set = JSON.parse(putText) as { complete: boolean; credentials: { is_set: boolean }[] };
      expect(set.complete).toBe(true);
      expect(set.credentials.map((c) => c.is_set)).toEqual([true, true]);
      expect(await vault.forInvoke(String(adaId), tool.toolId)).toEqual({
        WEATHER_API_KEY: SECRET,
        WEATHER_UNITS: "imperial",
      });

      // A null clears one field; the others stay.
      const unset = await h.req("PUT", path(tool.toolId), {
        cookie: ada,
        body: { values: { WEATHER_UNITS: null } },
      });
      expect(unset.status).toBe(200);
      expect(await vault.forInvoke(String(adaId), tool.toolId)).toEqual({
        WEATHER_API_KEY: SECRET,
      });

      const del = await h.req("DELETE", path(tool.toolId), { cookie: ada });
      expect(del.status).toBe(200);
      expect(((await del.json()) as { complete: boolean }).complete).toBe(false);
      expect(await vault.forInvoke(String(adaId), tool.toolId)).toBeUndefined();
      expect(h.logs.join("\n")).not.toContain(SECRET);
    },
  );

  it.skipIf(d.skip)(
    "refuses undeclared names (naming the declared ones), empty and oversized values",
    async () => {
      const { h, tool, ada } = await setup();
      const unknown = await h.req("PUT", path(tool.toolId), {
        cookie: ada,
        body: { values: { WEATHER_API_KEY: "k", OPENAI_API_KEY: "k" } },
      });
      expect(unknown.status).toBe(400);
      const why = await detail(unknown);
      expect(why.code).toBe("validation_failed");
      expect(why.message).toContain("'OPENAI_API_KEY'");
      expect(why.message).toContain("WEATHER_API_KEY, WEATHER_UNITS");

      const empty = await h.req("PUT", path(tool.toolId), {
        cookie: ada,
        body: { values: { WEATHER_API_KEY: "" } },
      });
      expect([empty.status, (await detail(empty)).message]).toEqual([
        400,
        "WEATHER_API_KEY: an empty value is not a credential; send null to clear it",
      ]);
      const big = await h.req("PUT", path(tool.toolId), {
        cookie: ada,
        body: { values: { WEATHER_API_KEY: "x".repeat(8 * 1024 + 1) } },
      });
      expect(big.status).toBe(413);
      const shape = await h.req("PUT", path(tool.toolId), {
        cookie: ada,
        body: { WEATHER_API_KEY: "flat" },
      });
      expect(shape.status).toBe(400);
      const none = await h.req("PUT", path(tool.toolId), { cookie: ada, body: { values: {} } });
      expect(none.status).toBe(400);
    },
  );

  it.skipIf(d.skip)(
    "needs a sign-in, refuses cross-site cookie writes, 404s an executa the user lacks",
    async () => {
      const { h, tool, ada } = await setup();
      expect((await h.req("GET", path(tool.toolId))).status).toBe(401);
      const evil = await h.req("PUT", path(tool.toolId), {
        cookie: ada,
        headers: { origin: "https://evil.example" },
        body: { values: { WEATHER_API_KEY: "k" } },
      });
      expect([evil.status, (await detail(evil)).code]).toEqual([403, "csrf_rejected"]);
      const same = await h.req("DELETE", path(tool.toolId), {
        cookie: ada,
        headers: { origin: ORIGIN },
      });
      expect(same.status).toBe(200);
      const missing = await h.req("GET", path("tool-nobody-has-this"), { cookie: ada });
      expect([missing.status, (await detail(missing)).code]).toEqual([404, "not_found"]);
    },
  );

  it.skipIf(d.skip)(
    "another user can neither read nor use them, not even with a copied sealed row",
    async () => {
      const { h, tool, ada, adaId, vault, handle } = await setup();
      await h.req("PUT", path(tool.toolId), {
        cookie: ada,
        body: { values: { WEATHER_API_KEY: SECRET } },
      });
      const eve = await h.signup(`eve-${tool.toolId}@example.com`);
      const eveId = (await h.stores.users.findCredentials(`eve-${tool.toolId}@example.com`))!.user
        .id;
      // Without the executa: nothing to see.
      expect((await h.req("GET", path(tool.toolId), { cookie: eve })).status).toBe(404);
      expect(await vault.forInvoke(String(eveId), tool.toolId)).toBeUndefined();
      // With it: her own, unset fields.
      await h.req("PUT", `/api/v1/me/executas/${tool.toolId}`, { cookie: eve });
      const mine = (await (await h.req("GET", path(tool.toolId), { cookie: eve })).json()) as {
        credentials: { is_set: boolean }[];
      };
      expect(mine.credentials.map((c) => c.is_set)).toEqual([false, false]);
      expect(await vault.forInvoke(String(eveId), tool.toolId)).toBeUndefined();
      // Someone with database access copies Ada's sealed value into Eve's row: it does not open.
      const row = await handle.db
        .selectFrom("executa_credentials")
        .selectAll()
        .where("user_id", "=", adaId)
        .executeTakeFirstOrThrow();
      await handle.db
        .insertInto("executa_credentials")
        .values({ ...row, user_id: eveId })
        .execute();
      await expect(vault.forInvoke(String(eveId), tool.toolId)).rejects.toThrow(
        /WEATHER_API_KEY .* cannot be opened with the key-encryption key/,
      );
      // The describe user (not a Nexus user id) never gets any.
      expect(await vault.forInvoke("nexus-describe", tool.toolId)).toBeUndefined();
    },
  );

  it.skipIf(d.skip)("stores the value sealed: not in the database in clear", async () => {
    const { h, tool, ada, handle } = await setup();
    await h.req("PUT", path(tool.toolId), {
      cookie: ada,
      body: { values: { WEATHER_API_KEY: SECRET } },
    });
    const rows = await handle.db.selectFrom("executa_credentials").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sealed).toMatch(/^v1\./);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    if (handle.dialect === "sqlite") {
      // Every file of the database (main file, WAL, shared memory), as a stolen disk would have.
      await sql`pragma wal_checkpoint(FULL)`.execute(handle.db);
      const dir = dirname(handle.location);
      const files = readdirSync(dir).filter((f) => f.startsWith(basename(handle.location)));
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) {
        expect(readFileSync(join(dir, f)).includes(Buffer.from(SECRET)), f).toBe(false);
      }
    } else {
      const dump = await sql<{
        t: string;
      }>`select executa_credentials::text as t from executa_credentials`.execute(handle.db);
      expect(dump.rows.map((r) => r.t).join("\n")).not.toContain(SECRET);
    }
  });
});
