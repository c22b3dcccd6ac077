// The Executa Hub over real HTTP on SQLite and PostgreSQL: drafts and minted tool ids, retried
// writes answered `hit` and never created twice, SemVer versions and their refusals, the S2
// visibility guards (the first promotion freezes a version), yank, and delete vs archive (R9).
import { describe, expect, it } from "vitest";
import { sqlStores } from "../src/stores/sql-stores.js";
import { executaHub, type ExecutaReferences } from "../src/hub/executa-hub.js";
import { sqlExecutaStore } from "../src/hub/executa-store.js";
import { manualClock } from "../src/core/clock.js";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";
import { harness } from "./helpers/harness.js";
import { hubHttp, type HubHttp } from "./helpers/hub-http.js";

useDialectCleanup();

const MY = "/api/v1/executas/my";
const KEY = "a".repeat(64);

type Row = Record<string, unknown>;
const code = (body: unknown) => (body as { detail: { code: string } }).detail.code;
const message = (body: unknown) => (body as { detail: { message: string } }).detail.message;

/** References the test controls: version ids "frozen into a published app". */
function pinnedRefs(): ExecutaReferences & { pinned: Set<number> } {
  const pinned = new Set<number>();
  return { pinned, versionsInPublishedApps: () => Promise.resolve(new Set(pinned)) };
}

async function mint(
  hub: HubHttp,
  pat: string,
  opts: { slug?: string; type?: "tool" | "skill"; key?: string; version?: string } = {},
) {
  const draft = await hub.call(pat, "POST", `${MY}/drafts`, {
    body: {
      name: "Weather",
      executa_type: opts.type ?? "tool",
      slug_override: opts.slug ?? "weather",
      idempotency_key: opts.key ?? KEY,
    },
  });
  expect(draft.status).toBe(201);
  const d = draft.body as Row;
  const commit = await hub.call(pat, "POST", `${MY}/drafts/${String(d.id)}/commit`, {
    body: {
      payload: {
        name: "Weather",
        description: "Forecasts",
        version: opts.version ?? "1.0.0",
        distribution_type: "uv",
        package_name: "weather-tool",
        tool_id: "tool-forged-id",
      },
    },
  });
  expect(commit.status).toBe(201);
  return { draft: d, executa: commit.body as Row };
}

describe.each(DIALECTS)("executa hub on $name", (d) => {
  const setup = async () => {
    const db = await d.open();
    const clock = manualClock();
    const refs = pinnedRefs();
    const h = harness(
      db,
      {},
      {
        clock,
        hub: executaHub({ store: sqlExecutaStore(db.db), clock, references: refs }),
      },
    );
    const hub = await hubHttp(h);
    return { h, hub, refs, clock, stores: sqlStores(db.db) };
  };

  it.skipIf(d.skip)(
    "mints tool-{handle}-{slug}-{uniq} at draft time, drops a client tool_id, and a retried draft is the committed one",
    async () => {
      const { hub } = await setup();
      const { pat } = await hub.developer("acme");
      const { draft, executa } = await mint(hub, pat);
      expect(draft.tool_id).toMatch(/^tool-acme-weather-[a-z0-9]{6}$/);
      expect(executa.tool_id).toBe(draft.tool_id);
      expect(executa.executa_id).toBe(executa.id);
      expect(executa.visibility).toBe("private");

      // The published CLI's retry after losing .anna/executa.json: hit + negative id + the id.
      const again = await hub.call(pat, "POST", `${MY}/drafts`, {
        body: {
          name: "Weather",
          executa_type: "tool",
          slug_override: "weather",
          idempotency_key: KEY,
        },
      });
      expect(again.status).toBe(200);
      expect(again.hit).toBe(true);
      const a = again.body as Row & { payload: Row };
      expect(a.id as number).toBeLessThan(0);
      expect(a.tool_id).toBe(draft.tool_id);
      expect(a.payload.committed_executa_id).toBe(executa.id);

      const detail = await hub.call(pat, "GET", `${MY}/tools/${String(executa.id)}/detail`);
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({
        id: executa.id,
        tool_id: draft.tool_id,
        name: "Weather",
        executa_type: "tool",
        visibility: "private",
        is_published: false,
        distribution_type: "uv",
        version: "1.0.0",
        latest_version: null,
      });
      const list = await hub.call(pat, "GET", `${MY}/tools`);
      expect(Array.isArray(list.body)).toBe(true);
      expect((list.body as Row[]).map((r) => r.tool_id)).toEqual([draft.tool_id]);

      // Committing the same draft twice is the same executa.
      const recommit = await hub.call(pat, "POST", `${MY}/drafts/${String(draft.id)}/commit`, {
        body: { payload: {} },
      });
      expect(recommit.hit).toBe(true);
      expect((recommit.body as Row).executa_id).toBe(executa.id);
    },
  );

  it.skipIf(d.skip)(
    "refuses a draft without a handle, a second live executa with the same slug, and expired drafts",
    async () => {
      const { hub, clock } = await setup();
      const nobody = await hub.developer(null);
      const r = await hub.call(nobody.pat, "POST", `${MY}/drafts`, {
        body: { name: "X", executa_type: "tool", slug_override: "x" },
      });
      expect(r.status).toBe(400);
      expect(code(r.body)).toBe("handle_required");
      expect(message(r.body)).toContain("anna-app account set-handle");

      const { pat } = await hub.developer("slugs");
      await mint(hub, pat, { key: "k".repeat(64) });
      const other = await hub.call(pat, "POST", `${MY}/drafts`, {
        body: {
          name: "W2",
          executa_type: "tool",
          slug_override: "weather",
          idempotency_key: "z".repeat(64),
        },
      });
      const taken = await hub.call(
        pat,
        "POST",
        `${MY}/drafts/${String((other.body as Row).id)}/commit`,
        {
          body: { payload: { version: "1.0.0" } },
        },
      );
      expect(taken.status).toBe(409);
      expect(code(taken.body)).toBe("slug_taken");

      const late = await hub.call(pat, "POST", `${MY}/drafts`, {
        body: {
          name: "Late",
          executa_type: "skill",
          slug_override: "late",
          idempotency_key: "l".repeat(64),
        },
      });
      const lateId = (late.body as Row).id as number;
      clock.advance(24 * 3600_000);
      const expired = await hub.call(pat, "POST", `${MY}/drafts/${lateId}/commit`, { body: {} });
      expect(expired.status).toBe(410);
      expect(code(expired.body)).toBe("draft_expired");
      // The same key after expiry mints a fresh draft (new id, new tool id).
      const fresh = await hub.call(pat, "POST", `${MY}/drafts`, {
        body: {
          name: "Late",
          executa_type: "skill",
          slug_override: "late",
          idempotency_key: "l".repeat(64),
        },
      });
      expect(fresh.status).toBe(201);
      expect((fresh.body as Row).tool_id).not.toBe((late.body as Row).tool_id);
      expect((fresh.body as Row).tool_id).toMatch(/^skill-slugs-late-/);
    },
  );

  it.skipIf(d.skip)(
    "concurrent retries of a draft and of a freeze create exactly one row each",
    async () => {
      const { hub } = await setup();
      const { pat } = await hub.developer("racer");
      const body = { name: "R", executa_type: "tool", slug_override: "race", idempotency_key: KEY };
      const drafts = await Promise.all(
        [1, 2, 3].map(() => hub.call(pat, "POST", `${MY}/drafts`, { body })),
      );
      expect(new Set(drafts.map((r) => (r.body as Row).id)).size).toBe(1);
      expect(drafts.filter((r) => !r.hit)).toHaveLength(1);
      const id = (drafts[0]!.body as Row).id as number;
      const commits = await Promise.all(
        [1, 2, 3].map(() =>
          hub.call(pat, "POST", `${MY}/drafts/${id}/commit`, {
            body: { payload: { version: "1.0.0" } },
          }),
        ),
      );
      expect(commits.map((r) => r.status).sort()).toEqual([200, 200, 201]);
      expect(new Set(commits.map((r) => (r.body as Row).executa_id)).size).toBe(1);
      const eid = (commits[0]!.body as Row).executa_id as number;
      const freezes = await Promise.all(
        [1, 2, 3].map(() =>
          hub.call(pat, "POST", `${MY}/tools/${eid}/versions`, {
            query: { content_hash: "ab".repeat(32) },
            body: { version: "1.0.0" },
          }),
        ),
      );
      expect(freezes.map((r) => r.status).sort()).toEqual([200, 200, 201]);
      const versions = await hub.call(pat, "GET", `${MY}/tools/${eid}/versions`);
      expect(versions.body as Row[]).toHaveLength(1);
    },
  );

  it.skipIf(d.skip)(
    "freezes SemVer versions newest first and refuses duplicates, lower versions and unchanged content",
    async () => {
      const { hub } = await setup();
      const { pat } = await hub.developer("ver");
      const { executa } = await mint(hub, pat);
      const id = String(executa.id);
      const freeze = (version: string, hash?: string) =>
        hub.call(pat, "POST", `${MY}/tools/${id}/versions`, {
          ...(hash === undefined ? {} : { query: { content_hash: hash } }),
          body: { version },
        });
      const put = (fields: Row) =>
        hub.call(pat, "PUT", `${MY}/tools/${id}`, { body: { name: "Weather", ...fields } });

      const first = await freeze("1.0.0", "11".repeat(32));
      expect(first.status).toBe(201);
      expect(first.hit).toBe(false);
      const retry = await freeze("1.0.0", "11".repeat(32));
      expect(retry.status).toBe(200);
      expect(retry.hit).toBe(true);

      expect((await put({ package_name: "weather-tool-2" })).status).toBe(200);
      const clash = await freeze("1.0.0", "22".repeat(32));
      expect(clash.status).toBe(409);
      expect(code(clash.body)).toBe("version_exists");
      expect(message(clash.body)).toContain("version 1.0.0");
      expect(message(clash.body)).toContain("--bump patch");

      expect((await freeze("1.2.0-beta.1", "33".repeat(32))).status).toBe(201);
      const lower = await freeze("0.9.0", "44".repeat(32));
      expect(lower.status).toBe(409);
      expect(code(lower.body)).toBe("version_not_greater");
      expect(message(lower.body)).toContain("1.2.0-beta.1");

      const same = await freeze("1.2.0", "55".repeat(32));
      expect(same.status).toBe(409);
      expect(code(same.body)).toBe("no_changes");
      expect(message(same.body)).toContain("No content changes since the last published version");

      const bad = await freeze("v1");
      expect(bad.status).toBe(400);
      expect(message(bad.body)).toContain("SemVer");

      for (const [v, pkg] of [
        ["1.9.0", "p9"],
        ["1.10.0", "p10"],
      ] as const) {
        await put({ package_name: pkg });
        expect((await freeze(v)).status).toBe(201);
      }
      const list = (await hub.call(pat, "GET", `${MY}/tools/${id}/versions`)).body as Row[];
      expect(list.map((v) => v.version)).toEqual(["1.10.0", "1.9.0", "1.2.0-beta.1", "1.0.0"]);
      expect(
        list.every((v) => typeof v.content_hash === "string" && v.in_published_app === false),
      ).toBe(true);
      // The live row follows the last freeze.
      const detail = (await hub.call(pat, "GET", `${MY}/tools/${id}/detail`)).body as Row;
      expect(detail.version).toBe("1.10.0");
      expect((detail.latest_version as Row).version).toBe("1.10.0");
    },
  );

  it.skipIf(d.skip)(
    "S2: the first promotion freezes a version once; unpublish goes back to private",
    async () => {
      const { hub } = await setup();
      const { pat } = await hub.developer("vis");
      const { executa } = await mint(hub, pat, { version: "0.3.0" });
      const id = String(executa.id);
      const set = (visibility: string) =>
        hub.call(pat, "POST", `${MY}/tools/${id}/visibility`, { body: { visibility } });

      const bundled = await set("app_bundled");
      expect(bundled.status).toBe(200);
      expect((bundled.body as Row).visibility).toBe("app_bundled");
      expect(((bundled.body as Row).frozen_version as Row).version).toBe("0.3.0");
      // The CLI's E8 right after: the auto-frozen version holds exactly this content → hit.
      const e8 = await hub.call(pat, "POST", `${MY}/tools/${id}/versions`, {
        query: { content_hash: "66".repeat(32) },
        body: { version: "0.3.0" },
      });
      expect(e8.hit).toBe(true);

      const pub = await set("public");
      expect((pub.body as Row).is_published).toBe(true);
      expect((pub.body as Row).frozen_version).toBeNull();
      const unpub = await hub.call(pat, "POST", `${MY}/tools/${id}/unpublish`);
      expect(unpub.status).toBe(200);
      expect((unpub.body as Row).visibility).toBe("private");
      // Back out of private: not the first promotion, nothing frozen.
      expect(((await set("app_bundled")).body as Row).frozen_version).toBeNull();
      expect((await hub.call(pat, "GET", `${MY}/tools/${id}/versions`)).body as Row[]).toHaveLength(
        1,
      );

      const bad = await set("unlisted");
      expect(bad.status).toBe(400);
    },
  );

  it.skipIf(d.skip)(
    "yank deletes one version; delete is hard when unreferenced and an archive when a published app pins it",
    async () => {
      const { hub, refs } = await setup();
      const { pat } = await hub.developer("del");
      const { executa } = await mint(hub, pat);
      const id = String(executa.id);
      await hub.call(pat, "POST", `${MY}/tools/${id}/versions`, { body: { version: "1.0.0" } });
      await hub.call(pat, "PUT", `${MY}/tools/${id}`, {
        body: { name: "Weather", package_name: "w2" },
      });
      await hub.call(pat, "POST", `${MY}/tools/${id}/versions`, { body: { version: "1.1.0" } });
      const [v11, v10] = (await hub.call(pat, "GET", `${MY}/tools/${id}/versions`)).body as Row[];

      refs.pinned.add(v10!.id as number);
      const pinnedYank = await hub.call(
        pat,
        "DELETE",
        `${MY}/tools/${id}/versions/${String(v10!.id)}`,
      );
      expect(pinnedYank.status).toBe(409);
      expect(code(pinnedYank.body)).toBe("executa_referenced");
      expect(
        ((await hub.call(pat, "GET", `${MY}/tools/${id}/versions`)).body as Row[]).find(
          (v) => v.id === v10!.id,
        )?.in_published_app,
      ).toBe(true);

      const yank = await hub.call(pat, "DELETE", `${MY}/tools/${id}/versions/${String(v11!.id)}`);
      expect(yank.status).toBe(200);
      expect(
        ((await hub.call(pat, "GET", `${MY}/tools/${id}/versions`)).body as Row[]).map(
          (v) => v.version,
        ),
      ).toEqual(["1.0.0"]);
      expect((await hub.call(pat, "DELETE", `${MY}/tools/${id}/versions/999999`)).status).toBe(404);

      const archived = await hub.call(pat, "DELETE", `${MY}/tools/${id}`);
      expect(archived.body).toEqual({ deleted: false, archived: true });
      expect((await hub.call(pat, "GET", `${MY}/tools`)).body).toEqual([]);
      const kept = (await hub.call(pat, "GET", `${MY}/tools/${id}/detail`)).body as Row;
      expect(kept.archived).toBe(true);
      const frozen = await hub.call(pat, "POST", `${MY}/tools/${id}/visibility`, {
        body: { visibility: "public" },
      });
      expect(frozen.status).toBe(409);
      expect(code(frozen.body)).toBe("executa_archived");
      // Archiving frees the slug and the idempotency key: the next publish mints a new executa.
      const { executa: next } = await mint(hub, pat);
      expect(next.tool_id).not.toBe(executa.tool_id);

      refs.pinned.clear();
      const gone = await hub.call(pat, "DELETE", `${MY}/tools/${String(next.id)}`);
      expect(gone.body).toEqual({ deleted: true, archived: false });
      expect((await hub.call(pat, "GET", `${MY}/tools/${String(next.id)}/detail`)).status).toBe(
        404,
      );
    },
  );

  it.skipIf(d.skip)(
    "skills: their own routes, execution mode, and a freeze of unchanged content is a 409",
    async () => {
      const { hub } = await setup();
      const { pat } = await hub.developer("sk");
      const { executa: tool } = await mint(hub, pat, { key: "t".repeat(64) });
      const { executa: skill } = await mint(hub, pat, {
        type: "skill",
        slug: "coach",
        key: "s".repeat(64),
      });
      expect(skill.tool_id).toMatch(/^skill-sk-coach-/);
      expect((await hub.call(pat, "GET", `${MY}/skills/${String(tool.id)}/detail`)).status).toBe(
        404,
      );
      const skills = (await hub.call(pat, "GET", `${MY}/skills`)).body as Row[];
      expect(skills.map((s) => s.id)).toEqual([skill.id]);
      // E3 lists both kinds: `executa list` reads executa_type from it.
      expect(
        ((await hub.call(pat, "GET", `${MY}/tools`)).body as Row[]).map((s) => s.executa_type),
      ).toEqual(["tool", "skill"]);

      const put = await hub.call(pat, "PUT", `${MY}/skills/${String(skill.id)}`, {
        body: {
          name: "Coach",
          skill_content: "# Coach\n",
          version: "1.0.0",
          skill_execution_mode: "prompt",
        },
      });
      expect(put.body).toMatchObject({
        name: "Coach",
        skill_content: "# Coach\n",
        execution_mode: "prompt",
      });
      expect(
        (await hub.call(pat, "POST", `${MY}/skills/${String(skill.id)}/versions`, { body: {} }))
          .status,
      ).toBe(201);
      const again = await hub.call(pat, "POST", `${MY}/skills/${String(skill.id)}/versions`, {
        body: { version: "1.0.1" },
      });
      expect(again.status).toBe(409);
      expect(code(again.body)).toBe("no_changes");
      // The published CLI reads skill versions at /my/tools/{id}/versions.
      expect(
        (await hub.call(pat, "GET", `${MY}/tools/${String(skill.id)}/versions`)).body as Row[],
      ).toHaveLength(1);
    },
  );

  it.skipIf(d.skip)(
    "skills import and export round-trip; import checks the frontmatter; PATCH fills a draft",
    async () => {
      const { hub } = await setup();
      const { pat } = await hub.developer("imp");
      const content =
        "---\nname: chart-helper\ndescription: Draws charts from CSV\n---\nUse the chart tool.\n";
      const created = await hub.call(pat, "POST", `${MY}/skills/import`, {
        body: {
          slug: "chart-helper",
          skill_content: content,
          version: "1.0.0",
          execution_mode: "prompt",
        },
      });
      expect(created.status).toBe(201);
      const skill = created.body as Row;
      expect(skill).toMatchObject({
        name: "chart-helper",
        description: "Draws charts from CSV",
        executa_type: "skill",
      });
      expect(skill.tool_id).toMatch(/^skill-imp-chart-helper-/);
      const exported = (await hub.call(pat, "GET", `${MY}/skills/${String(skill.id)}/export`))
        .body as Row;
      expect(exported).toEqual({
        name: "chart-helper",
        slug: "chart-helper",
        description: "Draws charts from CSV",
        executa_type: "skill",
        skill_content: content,
        version: "1.0.0",
        execution_mode: "prompt",
      });
      expect((await hub.call(pat, "POST", `${MY}/skills/import`, { body: exported })).status).toBe(
        409,
      );
      await hub.call(pat, "DELETE", `${MY}/skills/${String(skill.id)}`);
      const again = await hub.call(pat, "POST", `${MY}/skills/import`, { body: exported });
      expect(again.status).toBe(201);
      const back = (
        await hub.call(pat, "GET", `${MY}/skills/${String((again.body as Row).id)}/export`)
      ).body;
      expect(back).toEqual(exported);

      const bad = await hub.call(pat, "POST", `${MY}/skills/import`, {
        body: { slug: "broken", skill_content: "no frontmatter at all\n" },
      });
      expect(bad.status).toBe(400);
      expect(message(bad.body)).toMatch(/^skill_content: /);

      const draft = await hub.call(pat, "POST", `${MY}/drafts`, {
        body: { name: "Wizard", executa_type: "skill", slug_override: "wizard" },
      });
      const id = (draft.body as Row).id as number;
      const patched = await hub.call(pat, "PATCH", `${MY}/drafts/${id}`, {
        body: {
          skill_content: "---\nname: wizard\ndescription: d\n---\n",
          metadata: { matrix: {} },
          tool_id: "forged",
        },
      });
      expect((patched.body as Row).payload).toEqual({
        skill_content: "---\nname: wizard\ndescription: d\n---\n",
        metadata: { matrix: {} },
      });
      const committed = await hub.call(pat, "POST", `${MY}/drafts/${id}/commit`, {
        body: { payload: { version: "0.1.0" } },
      });
      expect(committed.body).toMatchObject({
        skill_content: "---\nname: wizard\ndescription: d\n---\n",
        version: "0.1.0",
      });
      const late = await hub.call(pat, "PATCH", `${MY}/drafts/${id}`, { body: { name: "Late" } });
      expect(late.status).toBe(409);
      expect(code(late.body)).toBe("draft_committed");
    },
  );

  it.skipIf(d.skip)(
    "another developer's executa is not found, and writes need the executas:publish scope",
    async () => {
      const { hub } = await setup();
      const owner = await hub.developer("own");
      const { executa } = await mint(hub, owner.pat);
      const stranger = await hub.developer("stranger");
      for (const [method, path] of [
        ["GET", `${MY}/tools/${String(executa.id)}/detail`],
        ["GET", `${MY}/tools/${String(executa.id)}/versions`],
        ["DELETE", `${MY}/tools/${String(executa.id)}`],
      ] as const) {
        expect((await hub.call(stranger.pat, method, path)).status).toBe(404);
      }
      const readOnly = await hub.developer("reader", ["aps:dev"]);
      const refused = await hub.call(readOnly.pat, "POST", `${MY}/drafts`, {
        body: { name: "N", executa_type: "tool", slug_override: "n" },
      });
      expect(refused.status).toBe(403);
      expect((refused.body as { detail: Row }).detail.detail).toBe("missing_scope");
      expect((await hub.call(readOnly.pat, "GET", `${MY}/tools`)).status).toBe(200);
      expect((await hub.call("anna_pat_nope", "GET", `${MY}/tools`)).status).toBe(401);
    },
  );
});
