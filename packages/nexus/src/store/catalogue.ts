// The public App Store catalogue (A30, A34): search over published apps with a ranked keyset
// page, the category enum with counts, and one app's detail. Only `PUBLISHED` apps are listed;
// an `APPROVED` app with a released version is reachable by its slug (installable by direct
// look-up) but never listed; every other status is visible only to its owner and, once
// archived, to the users who still have it installed (A37).
import { APP_CATEGORIES, type AppCategory, compareAppVersions } from "@anna-ai/app-schema";
import { type Kysely, type RawBuilder, type SqlBool, sql } from "kysely";
import { NexusError } from "../core/errors.js";
import { isPostgres } from "../db/id-column.js";
import type { Database } from "../db/schema.js";
import { iso } from "../http/views.js";
import type { AppStatus } from "../db/schema-apps.js";
import { type CursorKey, decodeCursor, encodeCursor, queryFingerprint } from "./cursor.js";
import { resolveExecutas } from "./executa-lookup.js";
import { executaNeeds, frozenExecutas, parseManifest, requestedBy } from "./manifest-refs.js";

export const STORE_PAGE_DEFAULT = 20;
export const STORE_PAGE_MAX = 100;
export const STORE_QUERY_MAX_CHARS = 100;
/** More words than this add cost, not precision. */
export const STORE_QUERY_MAX_TERMS = 6;

export interface SearchInput {
  q?: string | undefined;
  category?: string | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
}

/** `!` escapes LIKE's wildcards; the same `escape '!'` clause works on both dialects. */
const likeEscape = (s: string) => s.replace(/[!%_]/g, (ch) => `!${ch}`);

/**
 * Case-insensitive LIKE on each dialect: SQLite's LIKE already ignores ASCII case (as its
 * lower() does: neither folds beyond ASCII without ICU), PostgreSQL's ILIKE folds all of Unicode.
 * Either avoids lower() copying every description of the scan.
 */
function likeOperator(db: Kysely<Database>) {
  return isPostgres(db as Kysely<unknown>) ? sql.raw("ilike") : sql.raw("like");
}

/** A term matches an app when it occurs in its slug, name, tagline or description. */
function termMatch(term: string, like: RawBuilder<unknown>) {
  const anywhere = `%${likeEscape(term)}%`;
  return sql<SqlBool>`(apps.slug ${like} ${anywhere} escape '!'
    or apps.name ${like} ${anywhere} escape '!'
    or coalesce(apps.tagline, '') ${like} ${anywhere} escape '!'
    or coalesce(apps.description, '') ${like} ${anywhere} escape '!')`;
}

/**
 * A matching term's weight for one app: an exact slug or name beats a name prefix, which beats
 * a match in the slug, the name, the tagline, then the description.
 */
function termRank(term: string, like: RawBuilder<unknown>) {
  const anywhere = `%${likeEscape(term)}%`;
  const prefix = `${likeEscape(term)}%`;
  return sql<number>`(case
    when lower(apps.slug) = ${term} or lower(apps.name) = ${term} then 100
    when apps.name ${like} ${prefix} escape '!' then 80
    when apps.slug ${like} ${anywhere} escape '!' then 60
    when apps.name ${like} ${anywhere} escape '!' then 50
    when coalesce(apps.tagline, '') ${like} ${anywhere} escape '!' then 30
    else 10 end)`;
}

function searchTerms(q: string | undefined): string[] {
  if (q === undefined) return [];
  if (q.length > STORE_QUERY_MAX_CHARS) {
    throw new NexusError(
      "validation_failed",
      `q: at most ${STORE_QUERY_MAX_CHARS} characters (got ${q.length})`,
    );
  }
  const terms = [...new Set(q.toLowerCase().split(/\s+/).filter(Boolean))];
  if (terms.length > STORE_QUERY_MAX_TERMS) {
    throw new NexusError(
      "validation_failed",
      `q: at most ${STORE_QUERY_MAX_TERMS} words (got ${terms.length})`,
    );
  }
  return terms;
}

export function parseCategory(raw: string | undefined): AppCategory | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (!(APP_CATEGORIES as readonly string[]).includes(raw)) {
    throw new NexusError(
      "validation_failed",
      `category: ${JSON.stringify(raw)} is not a category; use one of ${APP_CATEGORIES.join(", ")}`,
    );
  }
  return raw as AppCategory;
}

function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return STORE_PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > STORE_PAGE_MAX) {
    throw new NexusError("validation_failed", `limit: a whole number from 1 to ${STORE_PAGE_MAX}`);
  }
  return limit;
}

/** The row every listing shows; `description` only in the detail. */
function listingView(r: {
  id: number;
  slug: string;
  handle: string | null;
  name: string;
  tagline: string | null;
  category: string | null;
  logo_url: string | null;
  install_count: number;
  latest_version: string | null;
  updated_at: number;
}) {
  return {
    id: r.id,
    slug: r.slug,
    handle: r.handle,
    ref: r.handle === null ? r.slug : `@${r.handle}/${r.slug}`,
    name: r.name,
    tagline: r.tagline,
    category: r.category,
    logo_url: r.logo_url,
    install_count: Number(r.install_count),
    latest_version: r.latest_version,
    updated_at: iso(Number(r.updated_at)),
  };
}

export type StoreListing = ReturnType<typeof listingView>;

function listed(db: Kysely<Database>) {
  return db
    .selectFrom("apps")
    .leftJoin("app_versions as lv", "lv.id", "apps.latest_version_id")
    .where("apps.status", "=", "PUBLISHED")
    .where("apps.is_dev", "=", 0)
    .where("apps.latest_version_id", "is not", null);
}

export function storeCatalogue(db: Kysely<Database>) {
  return {
    /** One page of the listed apps, best match (or most installed) first. */
    async search(
      input: SearchInput,
    ): Promise<{ items: StoreListing[]; next_cursor: string | null }> {
      const terms = searchTerms(input.q);
      const category = parseCategory(input.category);
      const limit = pageLimit(input.limit);
      const fingerprint = queryFingerprint([terms.join(" "), category]);
      const after: CursorKey | undefined =
        input.cursor === undefined || input.cursor === ""
          ? undefined
          : decodeCursor(input.cursor, fingerprint);
      const like = likeOperator(db);
      const ranks = terms.map((t) => termRank(t, like));
      const rank: RawBuilder<number> =
        ranks.length === 0 ? sql<number>`0` : sql<number>`(${sql.join(ranks, sql` + `)})`;
      let query = listed(db).select([
        "apps.id",
        "apps.slug",
        "apps.handle",
        "apps.name",
        "apps.tagline",
        "apps.category",
        "apps.logo_url",
        "apps.install_count",
        "apps.updated_at",
        "lv.version as latest_version",
        rank.as("rank"),
      ]);
      if (category !== undefined) query = query.where("apps.category", "=", category);
      // Every word must match somewhere.
      for (const t of terms) query = query.where(termMatch(t, like));
      if (after !== undefined) {
        const [r, count, id] = after;
        query = query.where(
          ranks.length === 0
            ? sql<SqlBool>`(apps.install_count, apps.id) < (${count}, ${id})`
            : sql<SqlBool>`(${rank}, apps.install_count, apps.id) < (${r}, ${count}, ${id})`,
        );
      }
      // Without words every rank is 0; a bare constant in ORDER BY would read as a column number.
      if (ranks.length > 0) query = query.orderBy(sql`rank`, "desc");
      const rows = await query
        .orderBy("apps.install_count", "desc")
        .orderBy("apps.id", "desc")
        .limit(limit + 1)
        .execute();
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map(listingView),
        next_cursor:
          rows.length > limit && last
            ? encodeCursor([Number(last.rank), Number(last.install_count), last.id], fingerprint)
            : null,
      };
    },

    /** Every category of the enum (A4) with its number of listed apps, zeros included. */
    async categories(): Promise<{ category: AppCategory; count: number }[]> {
      const rows = await listed(db)
        .select(["apps.category", (eb) => eb.fn.countAll<number>().as("count")])
        .groupBy("apps.category")
        .execute();
      const counts = new Map(rows.map((r) => [r.category, Number(r.count)]));
      return APP_CATEGORIES.map((category) => ({ category, count: counts.get(category) ?? 0 }));
    },

    /** One app by slug, as `viewerId` may see it; undefined when they may not. */
    async detail(slug: string, viewerId: number | undefined) {
      const app = await db
        .selectFrom("apps")
        .selectAll()
        .where("slug", "=", slug)
        .executeTakeFirst();
      if (!app) return undefined;
      const installed =
        viewerId === undefined
          ? undefined
          : await db
              .selectFrom("user_apps")
              .select(["version", "enabled"])
              .where("user_id", "=", viewerId)
              .where("app_id", "=", app.id)
              .executeTakeFirst();
      const owner = viewerId !== undefined && app.owner_id === viewerId;
      if (!visibleBySlug(app.status, app.latest_version_id) && !owner && !installed) {
        return undefined;
      }
      const versions = await db
        .selectFrom("app_versions")
        .select(["id", "version", "changelog", "published_at", "manifest", "frozen_executas"])
        .where("app_id", "=", app.id)
        .where("published_at", "is not", null)
        .execute();
      versions.sort((a, b) => compareAppVersions(b.version, a.version));
      const latest = versions.find((v) => v.id === app.latest_version_id);
      const manifest = latest ? parseManifest(latest.manifest) : {};
      const needs = executaNeeds(manifest);
      const found = await resolveExecutas(
        db,
        needs,
        latest ? frozenExecutas(latest.frozen_executas) : new Map(),
      );
      return {
        ...listingView({
          ...app,
          latest_version: latest?.version ?? null,
          updated_at: app.updated_at,
        }),
        status: app.status,
        listed: app.status === "PUBLISHED" && app.is_dev === 0 && latest !== undefined,
        installable: isInstallable(app.status) && latest !== undefined,
        description: app.description,
        cover_url: app.cover_url,
        screenshots: JSON.parse(app.screenshots) as string[],
        homepage_url: app.homepage_url,
        support_url: app.support_url,
        privacy_url: app.privacy_url,
        versions: versions.map((v) => ({
          id: v.id,
          version: v.version,
          changelog: v.changelog,
          published_at: iso(v.published_at),
          is_latest: v.id === app.latest_version_id,
        })),
        bundled_tools: needs.map((n) => {
          const e = found.get(n.toolId);
          return {
            tool_id: n.toolId,
            name: e?.name ?? null,
            description: e?.description ?? null,
            executa_type: e?.executaType ?? null,
            required: n.required,
            version: e?.version ?? null,
            available: e !== undefined,
          };
        }),
        schema: manifest.schema ?? null,
        requested: requestedBy(manifest),
        viewer: {
          installed: installed !== undefined,
          installed_version: installed?.version ?? null,
          enabled: installed === undefined ? null : installed.enabled === 1,
          update_available:
            installed !== undefined && latest !== undefined && installed.version !== latest.version,
          owner,
        },
      };
    },
  };
}

export type StoreCatalogue = ReturnType<typeof storeCatalogue>;

/** A35: only these statuses install. */
export function isInstallable(status: AppStatus): boolean {
  return status === "PUBLISHED" || status === "APPROVED";
}

/** Who may look an app up by slug without owning or having it installed. */
function visibleBySlug(status: AppStatus, latestVersionId: number | null): boolean {
  return isInstallable(status) && latestVersionId !== null;
}
