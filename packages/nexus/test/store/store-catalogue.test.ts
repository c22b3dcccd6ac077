// The public App Store catalogue on SQLite and PostgreSQL over real HTTP: only PUBLISHED apps
// are listed, every other status is hidden (APPROVED reachable by slug only), search ranks and
// pages with a keyset cursor that survives inserts, categories count, and the detail shows
// released versions in SemVer order with bundled tools and what the app asks for.
import { APP_CATEGORIES } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { harness } from "../helpers/harness.js";
import { hubHttp } from "../helpers/hub-http.js";
import { storeFixture } from "../helpers/store-fixture.js";

useDialectCleanup();

type Row = Record<string, unknown>;
type Page = { items: Row[]; next_cursor: string | null };
const code = (body: unknown) => (body as { detail: { code: string } }).detail.code;
const slugs = (p: Page) => p.items.map((i) => i.slug);

describe.each(DIALECTS)("store catalogue on $name", (d) => {
  const setup = async () => {
    const handle = await d.open();
    const h = harness(handle);
    const http = await hubHttp(h);
    const fx = storeFixture(handle.db, h.stores, h.clock);
    const get = async (path: string, pat?: string) => {
      const res = await fetch(`${http.url}${path}`, {
        headers: pat ? { authorization: `Bearer ${pat}` } : {},
      });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    return { h, http, fx, get };
  };

  it.skipIf(d.skip)(
    "lists PUBLISHED apps only; APPROVED is found by slug, the rest by owner or installer",
    async () => {
      const { http, fx, get } = await setup();
      const owner = await http.developer("owner1");
      const stranger = await http.developer(null);
      await fx.app({ slug: "app-published" });
      await fx.app({ slug: "app-approved", status: "APPROVED" });
      await fx.app({
        slug: "app-approved-unreleased",
        status: "APPROVED",
        versions: [{ version: "1.0.0", published: false }],
      });
      await fx.app({
        slug: "app-draft",
        status: "DRAFT",
        ownerId: owner.userId,
        versions: [{ version: "1.0.0", published: false }],
      });
      await fx.app({
        slug: "app-pending",
        status: "PENDING_REVIEW",
        versions: [{ version: "1.0.0", published: false }],
      });
      await fx.app({
        slug: "app-rejected",
        status: "REJECTED",
        versions: [{ version: "1.0.0", published: false }],
      });
      await fx.app({ slug: "app-archived", status: "ARCHIVED" });
      await fx.app({ slug: "app-dev", isDev: true });

      const list = await get("/api/v1/store/apps");
      expect(list.status).toBe(200);
      expect(slugs(list.body as Page)).toEqual(["app-published"]);
      expect((list.body as Page).next_cursor).toBeNull();

      const seen = async (slug: string, pat?: string) =>
        (await get(`/api/v1/store/apps/${slug}`, pat)).status;
      expect(await seen("app-published")).toBe(200);
      const approved = (await get("/api/v1/store/apps/app-approved")).body as Row;
      expect(approved).toMatchObject({ status: "APPROVED", listed: false, installable: true });
      for (const hidden of [
        "app-approved-unreleased",
        "app-draft",
        "app-pending",
        "app-rejected",
        "app-archived",
        "no-such-app",
      ]) {
        expect([hidden, await seen(hidden, stranger.pat)]).toEqual([hidden, 404]);
      }
      // The owner sees their draft; nobody can install it yet.
      const draft = await get("/api/v1/store/apps/app-draft", owner.pat);
      expect(draft.status).toBe(200);
      expect(draft.body).toMatchObject({
        status: "DRAFT",
        installable: false,
        viewer: { owner: true },
      });
      // A malformed slug is a 404, not a 500.
      expect(await seen("A%20B")).toBe(404);
    },
  );

  it.skipIf(d.skip)(
    "ranks exact name over name prefix over slug, name, tagline and description",
    async () => {
      const { fx, get } = await setup();
      await fx.app({ slug: "diary", name: "Diary", description: "Keeps your Notes safe" });
      await fx.app({ slug: "journal", name: "Journal", tagline: "notes for every day" });
      await fx.app({ slug: "quick-notes", name: "Quick Jot" });
      await fx.app({ slug: "notebook", name: "Notes Plus", installCount: 1 });
      await fx.app({ slug: "notes", name: "Notes" });
      await fx.app({ slug: "weather", name: "Weather" });
      const q = async (query: string) =>
        slugs((await get(`/api/v1/store/apps?q=${encodeURIComponent(query)}`)).body as Page);
      expect(await q("notes")).toEqual(["notes", "notebook", "quick-notes", "journal", "diary"]);
      expect(await q("NOTES")).toEqual(await q("notes"));
      // Every word must match somewhere.
      expect(await q("quick notes")).toEqual(["quick-notes"]);
      expect(await q("notes weather")).toEqual([]);
      // LIKE wildcards in q are text, not patterns.
      expect(await q("%")).toEqual([]);
      expect(await q("n_tes")).toEqual([]);
    },
  );

  it.skipIf(d.skip)(
    "pages by installs with a stable cursor, and refuses bad paging input",
    async () => {
      const { fx, get } = await setup();
      for (let i = 0; i < 25; i++) {
        await fx.app({
          slug: `app-${String(i).padStart(2, "0")}`,
          installCount: i % 7,
          category: i % 2 ? "data" : "creative",
        });
      }
      const pages: Page[] = [];
      let cursor: string | null = "";
      while (cursor !== null) {
        const res = await get(`/api/v1/store/apps?limit=10${cursor ? `&cursor=${cursor}` : ""}`);
        expect(res.status).toBe(200);
        const page = res.body as Page;
        pages.push(page);
        cursor = page.next_cursor;
        // An app published between two pages never shifts the pages that follow.
        if (pages.length === 1) await fx.app({ slug: "late-hit", installCount: 100 });
      }
      expect(pages.map((p) => p.items.length)).toEqual([10, 10, 5]);
      const all = pages.flatMap((p) => p.items);
      expect(new Set(all.map((a) => a.slug)).size).toBe(25);
      expect(all.map((a) => a.slug)).not.toContain("late-hit");
      const counts = all.map((a) => a.install_count as number);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));

      const data = (await get("/api/v1/store/apps?category=data&limit=100")).body as Page;
      expect(data.items.every((a) => a.category === "data")).toBe(true);
      expect(data.items).toHaveLength(12);

      const first = (await get("/api/v1/store/apps?limit=2")).body as Page;
      const other = await get(`/api/v1/store/apps?limit=2&q=app&cursor=${first.next_cursor}`);
      expect(other.status).toBe(400);
      expect((other.body as { detail: { message: string } }).detail.message).toMatch(
        /another search/,
      );
      for (const bad of [
        "limit=0",
        "limit=101",
        "limit=abc",
        "cursor=%%%",
        "cursor=eyJ2IjoxfQ",
        "category=games",
        `q=${"x".repeat(101)}`,
        "q=a+b+c+d+e+f+g",
      ]) {
        const res = await get(`/api/v1/store/apps?${bad}`);
        expect([bad, res.status, code(res.body)]).toEqual([bad, 400, "validation_failed"]);
      }
    },
  );

  it.skipIf(d.skip)(
    "counts listed apps per category, every category of the enum present",
    async () => {
      const { fx, get } = await setup();
      await fx.app({ slug: "one-data", category: "data" });
      await fx.app({ slug: "two-data", category: "data" });
      await fx.app({ slug: "an-edu", category: "education" });
      await fx.app({ slug: "gone-data", category: "data", status: "ARCHIVED" });
      await fx.app({ slug: "draft-data", category: "data", status: "DRAFT" });
      const res = await get("/api/v1/store/categories");
      expect(res.status).toBe(200);
      const rows = res.body as { category: string; count: number }[];
      expect(rows.map((r) => r.category)).toEqual([...APP_CATEGORIES]);
      expect(Object.fromEntries(rows.map((r) => [r.category, r.count]))).toMatchObject({
        data: 2,
        education: 1,
        productivity: 0,
      });
    },
  );

  it.skipIf(d.skip)(
    "details released versions in SemVer order, bundled tools and requested access",
    async () => {
      const { fx, get } = await setup();
      const search = await fx.tool("search", { name: "Web Search" });
      const notes = await fx.tool("notes");
      const later = await fx.toolVersion(search, "1.1.0");
      await fx.app({
        slug: "research",
        name: "Research",
        description: "Long text",
        versions: [
          { version: "1.2.0-beta.1", required: [search.toolId] },
          { version: "1.9.0", required: [search.toolId] },
          {
            version: "1.10.0",
            required: [search.toolId, "platform-tool"],
            optional: [notes.toolId],
            frozen: { [search.toolId]: search.versionId },
            manifest: { permissions: ["storage.read"], host_capabilities: ["aps.kv"] },
          },
          { version: "2.0.0", required: [search.toolId], published: false },
        ],
      });
      const res = await get("/api/v1/store/apps/research");
      expect(res.status).toBe(200);
      const body = res.body as Row & { versions: Row[]; bundled_tools: Row[] };
      expect(body.versions.map((v) => [v.version, v.is_latest])).toEqual([
        ["1.10.0", true],
        ["1.9.0", false],
        ["1.2.0-beta.1", false],
      ]);
      expect(body).toMatchObject({
        latest_version: "1.10.0",
        description: "Long text",
        install_count: 0,
        requested: { permissions: ["storage.read"], host_capabilities: ["aps.kv"], host_api: {} },
      });
      expect(body.bundled_tools).toEqual([
        {
          tool_id: search.toolId,
          name: "Web Search",
          description: "search does things",
          executa_type: "tool",
          required: true,
          version: "1.0.0",
          available: true,
        },
        {
          tool_id: "platform-tool",
          name: null,
          description: null,
          executa_type: null,
          required: true,
          version: null,
          available: false,
        },
        {
          tool_id: notes.toolId,
          name: "notes",
          description: "notes does things",
          executa_type: "tool",
          required: false,
          version: "1.0.0",
          available: true,
        },
      ]);
      expect(later).toBeGreaterThan(search.versionId);
    },
  );
});
