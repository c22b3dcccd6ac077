// Apps and their store listing (inventory A1–A6, R2, R5, S1's create and delete; real-world-cli.md
// A1–A5, A25, A26): create under the developer's handle within the fair-use limits, listing edits
// that need no review, rename-slug only before the first publish, delete refused while users have
// it installed, and logo / screenshot images kept in the blob store under content-addressed keys.
import { open } from "node:fs/promises";
import { NexusError } from "../core/errors.js";
import type { User } from "../stores/types.js";
import { uniqueViolation } from "../stores/sql-stores.js";
import type { AppRow } from "./app-views.js";
import {
  type Db,
  notArchived,
  ownedApp,
  type RegistryDeps,
  requireBlobs,
  withinDailyLimit,
} from "./registry-deps.js";
import type { ReceivedFile } from "./multipart-upload.js";

/** Listing fields a create or PATCH may set; `null` clears a field. */
export interface ListingInput {
  name?: string | undefined;
  category?: string | null | undefined;
  tagline?: string | null | undefined;
  description?: string | null | undefined;
  logo_url?: string | null | undefined;
  cover_url?: string | null | undefined;
  homepage_url?: string | null | undefined;
  support_url?: string | null | undefined;
  privacy_url?: string | null | undefined;
  screenshots?: string[] | null | undefined;
}

const LISTING_COLUMNS = [
  "name",
  "category",
  "tagline",
  "description",
  "logo_url",
  "cover_url",
  "homepage_url",
  "support_url",
  "privacy_url",
] as const;

function listingColumns(input: ListingInput): Partial<Record<string, string | null>> {
  const out: Partial<Record<string, string | null>> = {};
  for (const key of LISTING_COLUMNS) {
    const value = input[key];
    if (value === undefined) continue;
    // The published CLI clears a URL field by sending "" (0.1.47 §C).
    out[key] = value === "" && key !== "name" ? null : value;
  }
  if (input.screenshots !== undefined) out.screenshots = JSON.stringify(input.screenshots ?? []);
  return out;
}

/** Images a listing accepts, by their first bytes (A5: JPEG, PNG, WebP, GIF). */
const IMAGE_TYPES: { type: string; test: (b: Buffer) => boolean }[] = [
  {
    type: "image/png",
    test: (b) => b.subarray(0, 8).equals(Buffer.from("89504e470d0a1a0a", "hex")),
  },
  { type: "image/jpeg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: "image/gif", test: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString("latin1")) },
  {
    type: "image/webp",
    test: (b) =>
      b.subarray(0, 4).toString("latin1") === "RIFF" &&
      b.subarray(8, 12).toString("latin1") === "WEBP",
  },
];

/** The URL path listing images are served at; the key is the image's SHA-256. */
export const APP_MEDIA_ROUTE = "/api/v1/app-media/";
export const mediaKey = (sha256: string) => `app-media/sha256/${sha256}`;

export function appService(deps: RegistryDeps) {
  const { db, clock, limits } = deps;

  function requireDeveloper(user: User): void {
    if (user.developerState !== "verified") {
      throw new NexusError(
        "developer_required",
        user.developerState === "revoked"
          ? "Verified developer status required. Your developer access was revoked; only an admin can restore it"
          : "Verified developer status required. Activate developer access in the web console at /developer",
      );
    }
  }

  async function activeCount(ownerId: number): Promise<number> {
    const row = await db
      .selectFrom("apps")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("owner_id", "=", ownerId)
      .where("status", "!=", "ARCHIVED")
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** `on` is the open transaction when there is one (SQLite has a single connection). */
  async function installs(appId: number, on: Db = db): Promise<number> {
    const row = await on
      .selectFrom("user_apps")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("app_id", "=", appId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  function slugTaken(slug: string): NexusError {
    return new NexusError(
      "slug_taken",
      `the slug '${slug}' is taken (slugs are unique across the store); pick another in app.json`,
      { details: { slug } },
    );
  }

  async function renameSlug(app: AppRow, slug: string, now: number, tx: Db): Promise<void> {
    if (slug === app.slug) return;
    if (app.first_published_at !== null || !["DRAFT", "REJECTED"].includes(app.status)) {
      throw new NexusError(
        "app_state",
        `${app.slug} is ${app.status}${app.first_published_at !== null ? " and was published" : ""}; ` +
          "a slug can change only while the app is DRAFT or REJECTED and was never published",
        { details: { status: app.status } },
      );
    }
    if ((await installs(app.id, tx)) > 0) {
      throw new NexusError(
        "app_has_installs",
        `${app.slug} is installed by users, so its slug cannot change`,
      );
    }
    try {
      await tx
        .updateTable("apps")
        .set({ slug, updated_at: now })
        .where("id", "=", app.id)
        .execute();
    } catch (err) {
      if (uniqueViolation(err) !== undefined) throw slugTaken(slug);
      throw err;
    }
  }

  /** Stores a checked listing image; its public URL. */
  async function storeImage(
    origin: string,
    file: ReceivedFile | undefined,
    maxBytes: number,
    what: string,
  ): Promise<string> {
    const blobs = requireBlobs(deps);
    if (file === undefined) {
      throw new NexusError("bad_request", `send the ${what} as a multipart part named 'file'`);
    }
    if (file.sizeBytes === 0 || file.sizeBytes > maxBytes) {
      throw new NexusError(
        file.sizeBytes === 0 ? "bad_request" : "payload_too_large",
        `the ${what} is ${file.sizeBytes} bytes; it must be 1 to ${maxBytes} bytes`,
      );
    }
    const handle = await open(file.path, "r");
    const head = Buffer.alloc(16);
    try {
      await handle.read(head, 0, 16, 0);
    } finally {
      await handle.close();
    }
    const kind = IMAGE_TYPES.find((t) => t.test(head));
    if (!kind) {
      throw new NexusError(
        "unsupported_media_type",
        `the ${what} is not a JPEG, PNG, WebP or GIF image (SVG is refused: it can carry scripts); convert it to PNG`,
      );
    }
    const key = mediaKey(file.sha256);
    if ((await blobs.head(key)) === undefined) await blobs.putFile(key, file.path, kind.type);
    return `${origin}${APP_MEDIA_ROUTE}${file.sha256}`;
  }

  return {
    requireDeveloper,

    async list(user: User, slug: string | undefined): Promise<AppRow[]> {
      let q = db.selectFrom("apps").selectAll().where("owner_id", "=", user.id);
      if (slug !== undefined) q = q.where("slug", "=", slug);
      return q.orderBy("id").execute();
    },

    get: (user: User, id: number) => ownedApp(db, user.id, id),

    async create(
      user: User,
      input: ListingInput & { slug: string; name: string },
    ): Promise<AppRow> {
      requireDeveloper(user);
      if (!user.handle) {
        throw new NexusError(
          "HANDLE_REQUIRED",
          "apps publish as @handle/slug and you have no developer handle yet; set it with " +
            "`anna-app account set-handle <handle>` and retry",
        );
      }
      const active = await activeCount(user.id);
      if (active >= limits.activeApps) {
        throw new NexusError(
          "app_limit_reached",
          `you have ${active} active apps, the most allowed is ${limits.activeApps}; archive or delete one first (\`anna-app apps archive <slug>\`)`,
          { details: { active, limit: limits.activeApps } },
        );
      }
      await withinDailyLimit(deps, `app-create:${user.id}`, limits.createsPerDay, "created an app");
      const now = clock.now();
      try {
        return await db
          .insertInto("apps")
          .values({
            ...listingColumns(input),
            slug: input.slug,
            name: input.name,
            handle: user.handle,
            owner_id: user.id,
            status: "DRAFT",
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      } catch (err) {
        if (uniqueViolation(err) !== undefined) throw slugTaken(input.slug);
        throw err;
      }
    },

    /** Listing edits (no review needed, A6) and rename-slug. */
    async patch(user: User, id: number, input: ListingInput & { slug?: string }): Promise<AppRow> {
      const app = await ownedApp(db, user.id, id);
      notArchived(app);
      const now = clock.now();
      await db.transaction().execute(async (tx) => {
        if (input.slug !== undefined) await renameSlug(app, input.slug, now, tx);
        const columns = listingColumns(input);
        if (Object.keys(columns).length > 0) {
          await tx
            .updateTable("apps")
            .set({ ...columns, updated_at: now })
            .where("id", "=", app.id)
            .execute();
        }
      });
      return ownedApp(db, user.id, id);
    },

    async remove(user: User, id: number): Promise<void> {
      const app = await ownedApp(db, user.id, id);
      const n = await installs(app.id);
      if (n > 0) {
        throw new NexusError(
          "app_has_installs",
          `${app.slug} is installed by ${n} user${n === 1 ? "" : "s"} and cannot be deleted; ` +
            `archive it instead (\`anna-app apps archive ${app.slug}\`): installs keep working, the store hides it`,
          { details: { installs: n } },
        );
      }
      await db.deleteFrom("apps").where("id", "=", app.id).execute();
    },

    /** A25: the logo is written onto the app (the CLI does not PATCH it afterwards). */
    async setLogo(user: User, id: number, origin: string, file: ReceivedFile | undefined) {
      const app = await ownedApp(db, user.id, id);
      notArchived(app);
      const url = await storeImage(origin, file, limits.logoMaxBytes, "logo");
      await db
        .updateTable("apps")
        .set({ logo_url: url, updated_at: clock.now() })
        .where("id", "=", app.id)
        .execute();
      return url;
    },

    /** A26: a screenshot is stored only; the CLI PATCHes the list itself. */
    async addScreenshot(user: User, id: number, origin: string, file: ReceivedFile | undefined) {
      const app = await ownedApp(db, user.id, id);
      notArchived(app);
      return storeImage(origin, file, limits.screenshotMaxBytes, "screenshot");
    },
  };
}

export type AppService = ReturnType<typeof appService>;
