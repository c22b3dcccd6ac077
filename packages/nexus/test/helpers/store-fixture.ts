// Published apps and Hub executas for App Store tests, without the developer apps API: tools are
// made through the real Executa Hub (draft, commit, promotion to `app_bundled` or `public`, which
// freezes a version), apps through putAppVersion, then given the listing, status and release
// columns that the registry's publish path would have set.
import type { AppManifest } from "@anna-ai/app-schema";
import type { Kysely } from "kysely";
import type { Clock } from "../../src/core/clock.js";
import type { Database } from "../../src/db/schema.js";
import type { AppStatus } from "../../src/db/schema-apps.js";
import { executaHub } from "../../src/hub/executa-hub.js";
import { sqlExecutaStore, type Visibility } from "../../src/hub/executa-store.js";
import { putAppVersion } from "../../src/runtime/app-catalog-writes.js";
import type { Stores, User } from "../../src/stores/types.js";

let people = 0;

export interface FixtureTool {
  toolId: string;
  name: string;
  executaId: number;
  versionId: number;
}

export interface FixtureVersion {
  version: string;
  required?: string[];
  optional?: string[];
  /** Released (published_at set); default true. */
  published?: boolean;
  /** tool_id → executa_versions.id frozen on cut. */
  frozen?: Record<string, number>;
  manifest?: Partial<AppManifest>;
}

export interface FixtureApp {
  slug: string;
  name?: string;
  status?: AppStatus;
  category?: string | null;
  tagline?: string | null;
  description?: string | null;
  ownerId?: number | null;
  installCount?: number;
  isDev?: boolean;
  versions?: FixtureVersion[];
}

export function storeFixture(db: Kysely<Database>, stores: Stores, clock: Clock) {
  const hub = executaHub({ store: sqlExecutaStore(db), clock });
  let dev: User | undefined;

  async function developer(): Promise<User> {
    dev ??= await stores.users.create(
      {
        email: `tools${++people}@example.com`,
        passwordHash: "x",
        isVerified: true,
        handle: `toolsmith${people}`,
      },
      clock.now(),
    );
    return dev;
  }

  return {
    /** A tool in the Hub at `version`, promoted to `visibility` (the promotion freezes it). */
    async tool(
      slug: string,
      opts: { version?: string; visibility?: Visibility; name?: string } = {},
    ): Promise<FixtureTool> {
      const user = await developer();
      const { value: draft } = await hub.createDraft(user, {
        name: opts.name ?? slug,
        type: "tool",
        slug,
        idempotencyKey: undefined,
        payload: {},
      });
      const { value: e } = await hub.commitDraft(user, draft.id, {
        name: opts.name ?? slug,
        description: `${slug} does things`,
        version: opts.version ?? "1.0.0",
        distribution_type: "uv",
        package_name: slug,
      });
      const { frozen } = await hub.setVisibility(
        user,
        e.id,
        "tool",
        opts.visibility ?? "app_bundled",
      );
      if (!frozen) throw new Error(`promoting ${slug} froze no version`);
      return { toolId: e.toolId, name: e.name, executaId: e.id, versionId: frozen.id };
    },

    /** A new frozen version of an existing tool. */
    async toolVersion(tool: FixtureTool, version: string): Promise<number> {
      const user = await developer();
      await hub.update(user, tool.executaId, "tool", {
        name: tool.name,
        description: `now at ${version}`,
        fields: { version, distribution_type: "uv", package_name: tool.toolId },
      });
      const { value } = await hub.freezeVersion(user, tool.executaId, "tool", { version });
      return value.id;
    },

    /** The app with its versions; the highest released one becomes `latest_version_id`. */
    async app(a: FixtureApp): Promise<number> {
      const now = clock.now();
      const versions = a.versions ?? [{ version: "1.0.0" }];
      let appId = 0;
      let latest: { id: number; version: string } | undefined;
      for (const v of versions) {
        const manifest = {
          schema: 1,
          required_executas: (v.required ?? []).map((tool_id) => ({ tool_id })),
          optional_executas: (v.optional ?? []).map((tool_id) => ({ tool_id })),
          ...v.manifest,
        } as AppManifest;
        ({ appId } = await putAppVersion(
          db,
          { slug: a.slug, version: v.version, name: a.name ?? a.slug, manifest },
          now,
        ));
        const published = v.published ?? true;
        const row = await db
          .updateTable("app_versions")
          .set({
            published_at: published ? now : null,
            source: "cut",
            frozen_executas: JSON.stringify(
              Object.entries(v.frozen ?? {}).map(([tool_id, executa_version_id]) => ({
                tool_id,
                executa_version_id,
              })),
            ),
          })
          .where("app_id", "=", appId)
          .where("version", "=", v.version)
          .returning(["id", "version"])
          .executeTakeFirstOrThrow();
        if (published) latest = row;
      }
      await db
        .updateTable("apps")
        .set({
          status: a.status ?? "PUBLISHED",
          category: a.category === undefined ? "productivity" : a.category,
          tagline: a.tagline ?? null,
          description: a.description ?? null,
          owner_id: a.ownerId ?? null,
          install_count: a.installCount ?? 0,
          is_dev: a.isDev ? 1 : 0,
          latest_version_id: latest?.id ?? null,
          first_published_at: latest ? now : null,
        })
        .where("id", "=", appId)
        .execute();
      return appId;
    },

    /** Releases `version` (already added) as the new latest, as a publish would. */
    async release(appId: number, version: string): Promise<void> {
      const row = await db
        .updateTable("app_versions")
        .set({ published_at: clock.now() })
        .where("app_id", "=", appId)
        .where("version", "=", version)
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .updateTable("apps")
        .set({ latest_version_id: row.id })
        .where("id", "=", appId)
        .execute();
    },

    async setStatus(appId: number, status: AppStatus): Promise<void> {
      await db.updateTable("apps").set({ status }).where("id", "=", appId).execute();
    },
  };
}

export type StoreFixture = ReturnType<typeof storeFixture>;
