// The Executa Hub's rules (spec L3795–4172, S2, R9–R11, A44, real-world-cli.md §4): drafts mint a
// tool_id and commit once; a retried draft or freeze with the same key or content answers
// `hit` instead of creating twice; versions are SemVer, immutable and strictly increasing; the
// first move out of `private` freezes a version; DELETE archives what a published app references.
// Every refusal names the state it found and the next step.
import { compareAppVersions, isAppVersion } from "@anna-ai/app-schema";
import type { Clock } from "../core/clock.js";
import { NexusError } from "../core/errors.js";
import type { User } from "../stores/types.js";
import {
  DuplicateRow,
  type Executa,
  type ExecutaDraft,
  type ExecutaStore,
  type ExecutaType,
  type ExecutaVersion,
  type JsonObject,
  type Visibility,
} from "./executa-store.js";
import { installableVersion } from "./installable.js";
import { snapshotHash, snapshotOf } from "./snapshot.js";
import { mintToolId } from "./tool-id.js";

/** Drafts auto-expire after 24 h if not committed (L4127). */
export const DRAFT_TTL_MS = 24 * 3600_000;

/**
 * What apps will tell the hub about executa versions they froze. Apps are not built yet, so the
 * default says "nothing references anything"; the app store plugs its own in.
 */
export interface ExecutaReferences {
  /** Ids of this executa's versions frozen into a published app version. */
  versionsInPublishedApps(executaId: number): Promise<ReadonlySet<number>>;
}

export const NO_REFERENCES: ExecutaReferences = {
  versionsInPublishedApps: () => Promise.resolve(new Set()),
};

export interface HubDeps {
  store: ExecutaStore;
  clock: Clock;
  references?: ExecutaReferences;
}

/** A write answered from what the server already had (`x-anna-idempotent: hit`). */
export interface Answer<T> {
  value: T;
  hit: boolean;
}

export interface DraftInput {
  name: string;
  type: ExecutaType;
  slug: string;
  idempotencyKey: string | undefined;
  payload: JsonObject;
}

export interface ExecutaUpdate {
  name: string;
  description?: string | null | undefined;
  /** Every other field of the PUT body; `version` kept from the live row when absent. */
  fields: JsonObject;
}

/** Columns, not payload: a client's copy in a payload is ignored (and `tool_id` is mint-only). */
const NOT_PAYLOAD = new Set([
  "name",
  "description",
  "executa_type",
  "slug",
  "tool_id",
  "id",
  "visibility",
]);

function payloadPart(input: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(input).filter(([k]) => !NOT_PAYLOAD.has(k)));
}

/** Newest first by SemVer (E7: `[0]` is the latest). */
export function newestFirst(versions: readonly ExecutaVersion[]): ExecutaVersion[] {
  return [...versions].sort((a, b) => compareAppVersions(b.version, a.version));
}

function bumpHint(version: string): string {
  return `bump the version in executa.json (e.g. \`anna-app executa publish --bump patch\`) past ${version}`;
}

export function executaHub(deps: HubDeps) {
  const { store, clock } = deps;
  const references = deps.references ?? NO_REFERENCES;

  async function owned(user: User, id: number, type?: ExecutaType): Promise<Executa> {
    const e = await store.findExecuta(user.id, id);
    // A skill under /my/tools is found too: the published CLI reads skill versions there (§4).
    if (!e || (type === "skill" && e.type !== "skill")) {
      throw new NexusError(
        "not_found",
        `no ${type ?? "executa"} with id ${id} among yours; list them with \`anna-app executa list\``,
      );
    }
    return e;
  }

  function live(e: Executa): Executa {
    if (e.archivedAt !== null) {
      throw new NexusError(
        "executa_archived",
        `${e.toolId} is archived (deleted while a published app uses it) and can no longer change; ` +
          "to publish anew, run `anna-app executa cache-clear` in its folder and publish again",
        { details: { state: "archived" } },
      );
    }
    return e;
  }

  async function ownedDraft(user: User, id: number): Promise<ExecutaDraft> {
    const d = await store.findDraft(user.id, id);
    if (!d) throw new NexusError("not_found", `no draft with id ${id} among yours`);
    if (d.committedExecutaId === null && d.expiresAt <= clock.now()) {
      throw new NexusError(
        "draft_expired",
        `draft ${id} expired (drafts last 24 h uncommitted); start again with POST /api/v1/executas/my/drafts`,
      );
    }
    return d;
  }

  function requireHandle(user: User): string {
    if (!user.handle) {
      throw new NexusError(
        "handle_required",
        "tool ids are minted under your developer handle and you have none yet; set it with " +
          "`anna-app account set-handle <handle>` and retry",
      );
    }
    return user.handle;
  }

  /**
   * Freezes the live row as `version`. The same version with the same content is a hit; the same
   * version with other content, a version not above the latest, or unchanged content under a new
   * number are refused.
   */
  async function freeze(
    e: Executa,
    version: string,
    contentHash: string | undefined,
    frozenBy: ExecutaVersion["frozenBy"],
  ): Promise<Answer<ExecutaVersion>> {
    if (!isAppVersion(version)) {
      throw new NexusError(
        "validation_failed",
        `version ${JSON.stringify(version)} is not SemVer: use X.Y.Z with an optional -prerelease`,
      );
    }
    const snapshot = snapshotOf(e, version);
    const hash = snapshotHash(snapshot);
    const same = (v: ExecutaVersion) =>
      (contentHash !== undefined && v.contentHash === contentHash) || v.snapshotHash === hash;
    const decide = (versions: ExecutaVersion[]): Answer<ExecutaVersion> | undefined => {
      const existing = versions.find((v) => v.version === version);
      if (existing) {
        if (same(existing)) return { value: existing, hit: true };
        throw new NexusError(
          "version_exists",
          `version ${version} of ${e.toolId} already exists with other content; ${bumpHint(version)}`,
          { details: { version } },
        );
      }
      const latest = newestFirst(versions)[0];
      if (latest && compareAppVersions(version, latest.version) < 0) {
        throw new NexusError(
          "version_not_greater",
          `version ${version} is below the latest version ${latest.version} of ${e.toolId}; ${bumpHint(latest.version)}`,
          { details: { version, latest: latest.version } },
        );
      }
      if (latest && latest.snapshotHash === hash) {
        throw new NexusError(
          "no_changes",
          `No content changes since the last published version (${latest.version}); change the executa before freezing ${version}`,
          { details: { version, latest: latest.version } },
        );
      }
      return undefined;
    };
    const before = decide(await store.listVersions(e.id));
    if (before) return before;
    try {
      const value = await store.transaction(async (tx) => {
        const v = await tx.createVersion(
          {
            executaId: e.id,
            version,
            contentHash: contentHash ?? hash,
            snapshotHash: hash,
            snapshot,
            frozenBy,
          },
          clock.now(),
        );
        if (e.payload.version !== version) {
          await tx.updateExecuta(e.id, { payload: { ...e.payload, version } }, clock.now());
        }
        return v;
      });
      return { value, hit: false };
    } catch (err) {
      // A concurrent retry froze it first: answer as that retry would have been answered.
      if (!(err instanceof DuplicateRow)) throw err;
      const after = decide(await store.listVersions(e.id));
      if (after) return after;
      throw err;
    }
  }

  async function slugTaken(user: User, type: ExecutaType, slug: string): Promise<NexusError> {
    const taken = (await store.listExecutas(user.id, { type, includeArchived: false }))
      .filter((e) => e.slug === slug)
      .map((e) => e.toolId);
    return new NexusError(
      "slug_taken",
      `you already have a ${type} with slug '${slug}' (${taken.join(", ") || "?"}); ` +
        "publish to that one (its id is in .anna/executa.json) or pick another slug",
      { details: { slug, tool_ids: taken } },
    );
  }

  return {
    owned,

    /** `GET /executas/{tool_id}/install`: one frozen version's distribution (hub/installable.ts). */
    installable: (user: User, toolId: string, version: string | undefined) =>
      installableVersion(store, user, toolId, version),

    /** `POST /my/skills/import`: a skill straight from a payload (an `export`'s output). */
    async importSkill(
      user: User,
      input: { name: string; slug: string; description: string | null; payload: JsonObject },
    ): Promise<Executa> {
      const handle = requireHandle(user);
      try {
        return await store.createExecuta(
          {
            ownerId: user.id,
            type: "skill",
            toolId: mintToolId("skill", handle, input.slug),
            slug: input.slug,
            name: input.name,
            description: input.description,
            payload: payloadPart(input.payload),
          },
          clock.now(),
        );
      } catch (err) {
        if (!(err instanceof DuplicateRow)) throw err;
        throw await slugTaken(user, "skill", input.slug);
      }
    },

    async createDraft(user: User, input: DraftInput): Promise<Answer<ExecutaDraft>> {
      const handle = requireHandle(user);
      const now = clock.now();
      if (input.idempotencyKey !== undefined) {
        const prior = await store.findDraftByKey(user.id, input.idempotencyKey);
        if (prior && (prior.committedExecutaId !== null || prior.expiresAt > now)) {
          return { value: prior, hit: true };
        }
        if (prior) await store.deleteDraft(prior.id);
      }
      for (let attempt = 0; ; attempt++) {
        try {
          const value = await store.createDraft(
            {
              ownerId: user.id,
              type: input.type,
              toolId: mintToolId(input.type, handle, input.slug),
              slug: input.slug,
              name: input.name,
              payload: payloadPart(input.payload),
              idempotencyKey: input.idempotencyKey ?? null,
              expiresAt: now + DRAFT_TTL_MS,
            },
            now,
          );
          return { value, hit: false };
        } catch (err) {
          if (!(err instanceof DuplicateRow)) throw err;
          // The same key from a concurrent retry, or (once in 36^6) a tool_id collision.
          if (input.idempotencyKey !== undefined) {
            const raced = await store.findDraftByKey(user.id, input.idempotencyKey);
            if (raced) return { value: raced, hit: true };
          }
          if (attempt >= 2) throw err;
        }
      }
    },

    async patchDraft(
      user: User,
      id: number,
      patch: { name?: string | undefined; payload: JsonObject },
    ): Promise<ExecutaDraft> {
      const d = await ownedDraft(user, id);
      if (d.committedExecutaId !== null) {
        throw new NexusError(
          "draft_committed",
          `draft ${id} was already committed as executa ${d.committedExecutaId}; edit that with PUT /api/v1/executas/my/${d.type}s/${d.committedExecutaId}`,
        );
      }
      const next = {
        name: patch.name ?? d.name,
        payload: { ...d.payload, ...payloadPart(patch.payload) },
      };
      await store.updateDraft(id, next);
      return { ...d, ...next };
    },

    async commitDraft(user: User, id: number, payload: JsonObject): Promise<Answer<Executa>> {
      const d = await ownedDraft(user, id);
      if (d.committedExecutaId !== null) {
        return { value: await owned(user, d.committedExecutaId), hit: true };
      }
      const merged = { ...d.payload, ...payload };
      const name = typeof merged.name === "string" && merged.name !== "" ? merged.name : d.name;
      const description = typeof merged.description === "string" ? merged.description : null;
      try {
        const value = await store.transaction(async (tx) => {
          const e = await tx.createExecuta(
            {
              ownerId: user.id,
              type: d.type,
              toolId: d.toolId,
              slug: d.slug,
              name,
              description,
              payload: payloadPart(merged),
            },
            clock.now(),
          );
          await tx.markDraftCommitted(d.id, e.id);
          return e;
        });
        return { value, hit: false };
      } catch (err) {
        if (!(err instanceof DuplicateRow)) throw err;
        const again = await store.findDraft(user.id, id);
        if (again?.committedExecutaId != null) {
          return { value: await owned(user, again.committedExecutaId), hit: true };
        }
        throw await slugTaken(user, d.type, d.slug);
      }
    },

    list(user: User, filter: { type?: ExecutaType; includeArchived: boolean }) {
      return store.listExecutas(user.id, filter);
    },

    async update(
      user: User,
      id: number,
      type: ExecutaType | undefined,
      u: ExecutaUpdate,
    ): Promise<Executa> {
      const e = live(await owned(user, id, type));
      const fields = payloadPart(u.fields);
      const payload: JsonObject = { ...fields };
      // The published CLI 0.1.30 sends no version on PUT: keep the live one.
      if (payload.version === undefined && e.payload.version !== undefined) {
        payload.version = e.payload.version;
      }
      // Binaries uploaded through B3–B5 are pinned on the row as `binary_urls`; the 0.1.47 CLI's
      // PUT for a binary_artifacts project sends none, which must not unpin them for this version.
      if (
        payload.binary_urls === undefined &&
        e.payload.binary_urls !== undefined &&
        payload.version === e.payload.version &&
        (payload.distribution_type ?? e.payload.distribution_type) === "binary"
      ) {
        payload.binary_urls = e.payload.binary_urls;
      }
      const description = u.description === undefined ? e.description : u.description;
      await store.updateExecuta(id, { name: u.name, description, payload }, clock.now());
      return { ...e, name: u.name, description, payload };
    },

    async setVisibility(
      user: User,
      id: number,
      type: ExecutaType | undefined,
      target: Visibility,
    ): Promise<{ executa: Executa; frozen: ExecutaVersion | undefined }> {
      const e = live(await owned(user, id, type));
      if (e.visibility === target) return { executa: e, frozen: undefined };
      let frozen: ExecutaVersion | undefined;
      const now = clock.now();
      if (target !== "private" && e.firstPromotedAt === null) {
        // S2: the first promotion freezes an immutable version of the live row, unless the
        // latest version already holds exactly this content.
        const version = e.payload.version;
        if (typeof version !== "string") {
          throw new NexusError(
            "validation_failed",
            `${e.toolId} has no version yet; set one (PUT with {"version": "1.0.0"}) before making it ${target}`,
          );
        }
        const latest = newestFirst(await store.listVersions(e.id))[0];
        if (!latest || latest.snapshotHash !== snapshotHash(snapshotOf(e, version))) {
          frozen = (await freeze(e, version, undefined, "app_bundled")).value;
        }
      }
      await store.updateExecuta(
        id,
        {
          visibility: target,
          ...(e.firstPromotedAt === null && target !== "private" ? { firstPromotedAt: now } : {}),
        },
        now,
      );
      const executa = (await owned(user, id)) as Executa;
      return { executa, frozen };
    },

    async freezeVersion(
      user: User,
      id: number,
      type: ExecutaType | undefined,
      input: { version?: string | undefined; contentHash?: string | undefined },
    ): Promise<Answer<ExecutaVersion>> {
      const e = live(await owned(user, id, type));
      const version = input.version ?? e.payload.version;
      if (typeof version !== "string") {
        throw new NexusError(
          "validation_failed",
          `send {"version": "X.Y.Z"}: ${e.toolId} has no version on its live row`,
        );
      }
      return freeze(e, version, input.contentHash, "publish");
    },

    async versions(
      user: User,
      id: number,
      type?: ExecutaType,
    ): Promise<{ version: ExecutaVersion; inPublishedApp: boolean }[]> {
      const e = await owned(user, id, type);
      const pinned = await references.versionsInPublishedApps(e.id);
      return newestFirst(await store.listVersions(e.id)).map((version) => ({
        version,
        inPublishedApp: pinned.has(version.id),
      }));
    },

    /** `executa yank`: hard-deletes one version, unless a published app froze it (R9). */
    async yank(user: User, id: number, type: ExecutaType | undefined, versionId: number) {
      const e = await owned(user, id, type);
      const v = (await store.listVersions(e.id)).find((x) => x.id === versionId);
      if (!v) {
        throw new NexusError(
          "not_found",
          `${e.toolId} has no version with id ${versionId}; see \`anna-app executa versions ${e.slug}\``,
        );
      }
      if ((await references.versionsInPublishedApps(e.id)).has(v.id)) {
        throw new NexusError(
          "executa_referenced",
          `version ${v.version} of ${e.toolId} is frozen into a published app version and cannot be yanked; ` +
            "publish a new version instead",
          { details: { version: v.version } },
        );
      }
      await store.deleteVersion(e.id, v.id);
      return v;
    },

    /** R9: hard delete when nothing references it, else a soft archive. */
    async remove(
      user: User,
      id: number,
      type: ExecutaType | undefined,
    ): Promise<"deleted" | "archived"> {
      const e = await owned(user, id, type);
      const pinned = await references.versionsInPublishedApps(e.id);
      if (pinned.size > 0) {
        if (e.archivedAt === null) await store.archiveExecuta(e.id, clock.now());
        return "archived";
      }
      await store.transaction((tx) => tx.deleteExecuta(e.id));
      return "deleted";
    },
  };
}

export type ExecutaHub = ReturnType<typeof executaHub>;
