// Executa binary direct upload (spec L2505–2560, real-world-cli.md §B B1–B8): an upload token
// scoped to one tool (minted by its owner's PAT, or exchanged for a trusted CI's OIDC token),
// then init → parts → finalize. Init plans each platform (`exists` when this version already
// holds the same bytes; otherwise part size and count, plus the parts already received so an
// interrupted upload resumes). Parts are range-checked, of exactly the planned length, and
// streamed to the blob store. Finalize assembles each platform, re-hashes it, and only when every
// sha256 and size matches the plan records the assets and pins them as the executa's
// `binary_urls` in one transaction: a mismatch commits nothing. A frozen version's binaries
// never change.
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { hashSecret, randomSecret } from "../../auth/secrets.js";
import type { BlobStore } from "../../blobs/blob-store.js";
import type { Clock } from "../../core/clock.js";
import type { NexusConfig } from "../../core/config.js";
import { NexusError } from "../../core/errors.js";
import type { Logger } from "../../core/logger.js";
import type { Database } from "../../db/schema.js";
import type { User } from "../../stores/types.js";
import { DuplicateRow, type Executa, sqlExecutaStore } from "../executa-store.js";
import {
  type ArchiveFormat,
  type BinaryStore,
  type BinaryUpload,
  type PlannedAsset,
  sqlBinaryStore,
  type StoredBinary,
  type TrustedPublisher,
  type UploadPlan,
  type UploadToken,
} from "./binary-store.js";
import type { OidcVerifier } from "./oidc.js";
import {
  MAX_PUBLISHERS_PER_TOOL,
  normalisePublisher,
  type PublisherInput,
  publisherMatches,
} from "./trusted-publishers.js";

export const UPLOAD_TOKEN_PREFIX = "anna_upl_";
/** Where downloads are served; the finalized `binary_urls` point here. */
export const BINARY_DOWNLOAD_ROUTE = "/api/v1/executas/binaries";

export const CONTENT_TYPES: Record<ArchiveFormat, string> = {
  "tar.gz": "application/gzip",
  zip: "application/zip",
};

export interface BinaryDeps {
  db: Kysely<Database>;
  blobs: BlobStore;
  clock: Clock;
  logger: Logger;
  config: NexusConfig["binaries"];
  oidc: OidcVerifier;
}

/** What B3 asks for one platform, already checked against the schema. */
export interface AssetRequest {
  filename: string;
  sha256: string;
  byteSize: number;
  format: ArchiveFormat;
  entrypoint: string | null;
}

export interface UploadCaller {
  token: UploadToken;
  executa: Executa;
}

/** The `binary_urls` entry of an asset (R76's BinaryAsset). */
export interface BinaryAssetView {
  url: string;
  sha256: string;
  size: number;
  format: ArchiveFormat;
  entrypoint?: string;
}

export function downloadUrl(origin: string, e: Executa, b: StoredBinary): string {
  const seg = encodeURIComponent;
  return `${origin}${BINARY_DOWNLOAD_ROUTE}/${seg(e.toolId)}/${seg(b.version)}/${seg(b.platform)}/${seg(b.filename)}`;
}

export function assetView(origin: string, e: Executa, b: StoredBinary): BinaryAssetView {
  return {
    url: downloadUrl(origin, e, b),
    sha256: b.sha256,
    size: b.byteSize,
    format: b.format,
    ...(b.entrypoint === null ? {} : { entrypoint: b.entrypoint }),
  };
}

const partKey = (uploadId: string, platform: string, index: number) =>
  `executa-binaries/parts/${uploadId}/${platform}/${index}`;
const assetKey = (e: Executa, uploadId: string, platform: string, filename: string) =>
  `executa-binaries/${e.id}/${uploadId}/${platform}/${filename}`;

/** The expected length of part `index` of an asset (the last one may be short). */
export function partLength(a: PlannedAsset, index: number): number {
  return Math.min(a.partSize, a.byteSize - index * a.partSize);
}

const sameBytes = (b: StoredBinary | undefined, a: AssetRequest) =>
  b !== undefined && b.sha256 === a.sha256 && b.byteSize === a.byteSize;

export function executaBinaries(deps: BinaryDeps) {
  const { db, blobs, clock, logger, config } = deps;
  const store = sqlBinaryStore(db);
  const executas = sqlExecutaStore(db);
  const tx = <T>(fn: (s: BinaryStore, e: ReturnType<typeof sqlExecutaStore>) => Promise<T>) =>
    db.transaction().execute((trx) => fn(sqlBinaryStore(trx), sqlExecutaStore(trx)));

  const forget = (key: string) =>
    blobs.delete(key).catch((error: unknown) => {
      logger.log("warn", "binary blob not deleted", { key, error: String(error) });
    });

  /** A tool of anyone's, by tool_id; missing, a skill, or archived are refusals. */
  async function tool(toolId: string, ownerId?: number): Promise<Executa> {
    const e = await executas.findByToolId(toolId);
    if (!e || (ownerId !== undefined && e.ownerId !== ownerId)) {
      throw new NexusError(
        "not_found",
        `no tool with tool_id ${toolId} among yours; list them with \`anna-app executa list\``,
      );
    }
    if (e.type !== "tool") {
      throw new NexusError(
        "validation_failed",
        `${toolId} is a skill; binaries belong to tools (executa_type "tool")`,
      );
    }
    if (e.archivedAt !== null) {
      throw new NexusError(
        "executa_archived",
        `${toolId} is archived and can no longer change; publish it anew first`,
      );
    }
    return e;
  }

  async function mint(e: Executa, t: Omit<UploadToken, "expiresAt" | "executaId">) {
    const now = clock.now();
    await store.sweepTokens(now);
    const token = randomSecret(32, UPLOAD_TOKEN_PREFIX);
    const expiresAt = now + config.uploadTokenTtlMs;
    await store.createToken(hashSecret(token), { ...t, executaId: e.id, expiresAt }, now);
    return {
      upload_token: token,
      token_type: "Bearer",
      tool_id: e.toolId,
      expires_in: Math.round(config.uploadTokenTtlMs / 1000),
      expires_at: new Date(expiresAt).toISOString(),
    };
  }

  async function ownedUpload(c: UploadCaller, uploadId: string): Promise<BinaryUpload> {
    const u = await store.findUpload(uploadId);
    if (!u || u.executaId !== c.executa.id) {
      throw new NexusError(
        "not_found",
        `no upload ${uploadId} for ${c.executa.toolId}; start one with POST …/binaries/init`,
      );
    }
    if (u.finalizedAt === null && u.expiresAt <= clock.now()) {
      throw new NexusError(
        "upload_expired",
        `upload ${uploadId} expired unfinalized; run \`anna-app executa upload-binaries\` again`,
      );
    }
    return u;
  }

  async function isFrozen(e: Executa, version: string): Promise<boolean> {
    return (await executas.listVersions(e.id)).some((v) => v.version === version);
  }

  function frozenRefusal(e: Executa, version: string, platform: string) {
    return new NexusError(
      "version_frozen",
      `version ${version} of ${e.toolId} is frozen and its ${platform} binary differs from the one it froze with; ` +
        "bump the version in executa.json (e.g. `anna-app executa publish --bump patch`) and upload again",
      { details: { version, platform } },
    );
  }

  /** Deletes uploads that expired unfinalized, with their parts. */
  async function sweepUploads(now: number): Promise<void> {
    for (const u of await store.expiredUploads(now)) {
      for (const p of await store.listParts(u.uploadId)) await forget(p.blobKey);
      await store.deleteUpload(u.uploadId);
    }
  }

  /** The planned parts not yet received, per platform that needs upload. */
  async function missingParts(u: BinaryUpload): Promise<Record<string, number[]>> {
    const have = await store.listParts(u.uploadId);
    const out: Record<string, number[]> = {};
    for (const [platform, a] of Object.entries(u.plan)) {
      if (a.status !== "upload") continue;
      const got = new Set(have.filter((p) => p.platform === platform).map((p) => p.index));
      const missing = [...Array(a.partCount).keys()].filter((i) => !got.has(i));
      if (missing.length) out[platform] = missing;
    }
    return out;
  }

  async function* concatParts(keys: string[]): AsyncGenerator<Uint8Array> {
    for (const key of keys) {
      const found = await blobs.read(key);
      if (!found) throw new Error(`part ${key} vanished from the blob store`);
      for await (const chunk of found.stream as AsyncIterable<Uint8Array>) yield chunk;
    }
  }

  async function finalizedView(origin: string, e: Executa, u: BinaryUpload) {
    const rows = await store.listBinaries(e.id, u.version);
    const assets: Record<string, BinaryAssetView & { status: string; filename: string }> = {};
    for (const platform of Object.keys(u.plan).sort()) {
      const b = rows.find((r) => r.platform === platform);
      if (b) {
        assets[platform] = {
          ...assetView(origin, e, b),
          status: u.plan[platform]!.status === "exists" ? "exists" : "uploaded",
          filename: b.filename,
        };
      }
    }
    return {
      upload_id: u.uploadId,
      tool_id: e.toolId,
      executa_version: u.version,
      finalized: true,
      assets,
      binary_urls: Object.fromEntries(rows.map((b) => [b.platform, assetView(origin, e, b)])),
    };
  }

  return {
    /** B1: the owner's PAT → a token for this one tool. */
    async mintForOwner(user: User, toolId: string) {
      const e = await tool(toolId, user.id);
      return mint(e, { userId: user.id, via: "pat", publisherId: null });
    },

    /** B2: a CI's OIDC id-token, matched against the tool's trusted publishers. */
    async mintForOidc(toolId: string, oidcToken: string) {
      const claims = await deps.oidc.verify(oidcToken);
      const e = await executas.findByToolId(toolId);
      const publishers = e ? await store.listPublishers(e.id) : [];
      const match = publishers.find((p) => publisherMatches(p, claims));
      if (!e || !match) {
        // The same answer for an unknown tool and an unmatched one: a token names no secrets.
        throw new NexusError(
          "no_trusted_publisher",
          `no trusted publisher of ${toolId} matches repository ${claims.repository}, ` +
            `workflow ${claims.workflowRefs[0] ?? "(none)"}, environment ${claims.environment ?? "(none)"}; ` +
            "register it with `anna-app executa trusted-publisher add --repository <owner/repo> --workflow <file>`",
        );
      }
      const live = await tool(toolId);
      await store.touchPublisher(match.id, clock.now());
      logger.log("info", "oidc upload token minted", {
        tool_id: toolId,
        publisher_id: match.id,
        repository: claims.repository,
      });
      return mint(live, { userId: live.ownerId, via: "oidc", publisherId: match.id });
    },

    /** Who a Bearer upload token acts for; every refusal is a 401. */
    async caller(secret: string | undefined): Promise<UploadCaller> {
      if (secret === undefined || !secret.startsWith(UPLOAD_TOKEN_PREFIX)) {
        throw new NexusError(
          "unauthenticated",
          "send an upload token (from POST /api/v1/anna-apps/dev/upload-session/mint) as Authorization: Bearer",
        );
      }
      const t = await store.findToken(hashSecret(secret));
      if (!t) throw new NexusError("unauthenticated", "unknown upload token");
      if (t.expiresAt <= clock.now()) {
        throw new NexusError(
          "token_expired",
          "this upload token has expired (they last 15 minutes); mint a new one",
        );
      }
      const e = await executas.findExecuta(t.userId, t.executaId);
      if (!e) throw new NexusError("unauthenticated", "the upload token's tool no longer exists");
      return { token: t, executa: e };
    },

    /** B3. `toolId` is the path's; it must be the token's tool. */
    async init(
      c: UploadCaller,
      toolId: string,
      input: { version: string; assets: Record<string, AssetRequest>; dryRun: boolean },
    ) {
      const e = await checkedTool(c, toolId);
      const now = clock.now();
      const platforms = Object.keys(input.assets).sort((a, b) => a.localeCompare(b));
      const stored = await store.listBinaries(e.id, input.version);
      const frozen = await isFrozen(e, input.version);
      const plan: UploadPlan = {};
      for (const platform of platforms) {
        const a = input.assets[platform]!;
        const have = stored.find((b) => b.platform === platform);
        const exists = sameBytes(have, a);
        if (!exists && frozen) throw frozenRefusal(e, input.version, platform);
        plan[platform] = {
          ...a,
          partSize: config.partBytes,
          partCount: Math.ceil(a.byteSize / config.partBytes),
          status: exists ? "exists" : "upload",
        };
      }
      const view = (u: BinaryUpload | undefined, received: Record<string, number[]>) => ({
        upload_id: u?.uploadId ?? null,
        tool_id: e.toolId,
        executa_version: input.version,
        dry_run: input.dryRun,
        expires_at: u ? new Date(u.expiresAt).toISOString() : null,
        assets: Object.fromEntries(
          Object.entries(u?.plan ?? plan).map(([p, a]) => [
            p,
            {
              status: a.status,
              filename: a.filename,
              sha256: a.sha256,
              byte_size: a.byteSize,
              format: a.format,
              part_size: a.partSize,
              part_count: a.status === "exists" ? 0 : a.partCount,
              uploaded_parts: received[p] ?? [],
            },
          ]),
        ),
      });
      if (input.dryRun) return view(undefined, {});
      await sweepUploads(now);
      // Resume: an open upload of exactly this plan keeps its parts.
      const same = (await store.openUploads(e.id, input.version, now)).find((u) =>
        samePlan(u.plan, plan),
      );
      if (same) {
        const received: Record<string, number[]> = {};
        for (const p of await store.listParts(same.uploadId)) {
          (received[p.platform] ??= []).push(p.index);
        }
        return view(same, received);
      }
      const upload: BinaryUpload = {
        uploadId: `bup_${randomBytes(16).toString("base64url")}`,
        executaId: e.id,
        version: input.version,
        plan,
        createdAt: now,
        expiresAt: now + config.uploadTtlMs,
        finalizedAt: null,
      };
      await store.createUpload(upload);
      return view(upload, {});
    },

    /** B4: one part, of exactly its planned length, streamed to the blob store. */
    async part(
      c: UploadCaller,
      toolId: string,
      uploadId: string,
      platform: string,
      rawIndex: string,
      body: AsyncIterable<Uint8Array> | null,
      declaredLength: number | undefined,
    ) {
      const e = await checkedTool(c, toolId);
      const u = await ownedUpload(c, uploadId);
      if (u.finalizedAt !== null) {
        throw new NexusError(
          "upload_incomplete",
          `upload ${uploadId} is already finalized; start a new one with POST …/binaries/init`,
        );
      }
      const a = u.plan[platform];
      if (!a || a.status !== "upload") {
        const planned = Object.entries(u.plan)
          .filter(([, x]) => x.status === "upload")
          .map(([p]) => p);
        throw new NexusError(
          "validation_failed",
          `platform ${JSON.stringify(platform)} has nothing to upload in ${uploadId} (planned: ${planned.join(", ") || "none"})`,
        );
      }
      const index = /^\d{1,9}$/.test(rawIndex) ? Number(rawIndex) : -1;
      if (index < 0 || index >= a.partCount) {
        throw new NexusError(
          "validation_failed",
          `part index ${JSON.stringify(rawIndex)} is out of range: ${platform} has ${a.partCount} part(s), 0–${a.partCount - 1}`,
        );
      }
      const expected = partLength(a, index);
      if (declaredLength !== undefined && declaredLength > expected) {
        throw new NexusError(
          "payload_too_large",
          `part ${index} of ${platform} is ${declaredLength} bytes; it must be exactly ${expected}`,
        );
      }
      const key = partKey(uploadId, platform, index);
      const out = await blobs.put(key, "application/octet-stream", body, expected);
      if (!out.ok) {
        await forget(key);
        throw new NexusError(
          "payload_too_large",
          `part ${index} of ${platform} is over its ${expected} bytes`,
        );
      }
      if (out.head.sizeBytes !== expected) {
        await forget(key);
        throw new NexusError(
          "size_mismatch",
          `part ${index} of ${platform} has ${out.head.sizeBytes} bytes; it must be exactly ${expected} (part_size ${a.partSize})`,
        );
      }
      await store.putPart(
        uploadId,
        { platform, index, byteSize: expected, blobKey: key },
        clock.now(),
      );
      return {
        upload_id: uploadId,
        tool_id: e.toolId,
        platform,
        index,
        byte_size: expected,
        sha256: out.head.sha256,
      };
    },

    /** B5: assemble, verify and pin; nothing is recorded unless every platform checks out. */
    async finalize(c: UploadCaller, toolId: string, uploadId: string, origin: string) {
      const e = await checkedTool(c, toolId);
      const u = await ownedUpload(c, uploadId);
      if (u.finalizedAt !== null) return finalizedView(origin, e, u);
      const missing = await missingParts(u);
      if (Object.keys(missing).length) {
        const list = Object.entries(missing)
          .map(([p, idx]) => `${p} ${idx.join(",")}`)
          .join("; ");
        throw new NexusError(
          "upload_incomplete",
          `upload ${uploadId} is missing parts (${list}); send them, then finalize again`,
          { details: { missing_parts: missing } },
        );
      }
      const written: string[] = [];
      const assembled: StoredBinary[] = [];
      try {
        for (const [platform, a] of Object.entries(u.plan)) {
          if (a.status !== "upload") continue;
          const parts = await store.listParts(uploadId, platform);
          const key = assetKey(e, uploadId, platform, a.filename);
          written.push(key);
          const out = await blobs.put(
            key,
            CONTENT_TYPES[a.format],
            concatParts(parts.map((p) => p.blobKey)),
            a.byteSize,
            a.byteSize,
          );
          const size = out.ok ? out.head.sizeBytes : a.byteSize + 1;
          if (size !== a.byteSize) {
            throw new NexusError(
              "size_mismatch",
              `${platform}: the uploaded archive has ${size} bytes, the plan declared ${a.byteSize}; nothing was recorded`,
              { details: { platform } },
            );
          }
          if (out.ok && out.head.sha256 !== a.sha256) {
            // The parts are useless for this plan: drop them, so a retry uploads afresh.
            for (const p of parts) await forget(p.blobKey);
            await store.deleteParts(uploadId, platform);
            throw new NexusError(
              "checksum_mismatch",
              `${platform}: the uploaded bytes hash to ${out.head.sha256}, not the declared ${a.sha256}; ` +
                "nothing was recorded — upload the archive again (`anna-app executa upload-binaries`)",
              { details: { platform, expected: a.sha256, actual: out.head.sha256 } },
            );
          }
          assembled.push({
            executaId: e.id,
            version: u.version,
            platform,
            filename: a.filename,
            sha256: a.sha256,
            byteSize: a.byteSize,
            format: a.format,
            entrypoint: a.entrypoint,
            blobKey: key,
            createdAt: clock.now(),
          });
        }
        const replaced = await tx(async (bs, es) => {
          if (
            assembled.length &&
            (await es.listVersions(e.id)).some((v) => v.version === u.version)
          ) {
            throw frozenRefusal(e, u.version, assembled[0]!.platform);
          }
          const old: StoredBinary[] = [];
          for (const b of assembled) {
            const before = await bs.putBinary(b);
            if (before) old.push(before);
          }
          await bs.markFinalized(uploadId, clock.now());
          const live = await es.findExecuta(e.ownerId, e.id);
          const liveVersion = live?.payload.version;
          if (live && (liveVersion === undefined || liveVersion === u.version)) {
            const rows = await bs.listBinaries(e.id, u.version);
            const binaryUrls = Object.fromEntries(
              rows.map((b) => [b.platform, assetView(origin, e, b)]),
            );
            await es.updateExecuta(
              e.id,
              {
                payload: {
                  ...live.payload,
                  distribution_type: live.payload.distribution_type ?? "binary",
                  binary_urls: binaryUrls,
                },
              },
              clock.now(),
            );
          }
          return old;
        });
        written.length = 0;
        for (const b of replaced) await forget(b.blobKey);
      } finally {
        // Refused or failed: what this finalize wrote is not referenced by anything.
        for (const key of written) await forget(key);
      }
      for (const p of await store.listParts(uploadId)) await forget(p.blobKey);
      logger.log("info", "executa binaries finalized", {
        tool_id: e.toolId,
        version: u.version,
        platforms: assembled.map((b) => b.platform),
      });
      return finalizedView(origin, e, u);
    },

    /** The stored assets of a version, as `binary_urls` entries. */
    async assets(origin: string, e: Executa, version: string) {
      const rows = await store.listBinaries(e.id, version);
      return Object.fromEntries(rows.map((b) => [b.platform, assetView(origin, e, b)]));
    },

    /** A download: the asset and its bytes, if `viewer` may see the executa. */
    async download(
      toolId: string,
      version: string,
      platform: string,
      filename: string,
      viewer: User | undefined,
    ) {
      const e = await executas.findByToolId(toolId);
      const visible =
        e !== undefined &&
        (e.visibility === "public" ||
          (viewer !== undefined && (e.visibility === "app_bundled" || viewer.id === e.ownerId)));
      const b = visible ? await store.findBinary(e.id, version, platform) : undefined;
      const found = b && b.filename === filename ? await blobs.read(b.blobKey) : undefined;
      if (!e || !b || !found) {
        throw new NexusError(
          "not_found",
          `no binary ${platform}/${filename} of ${toolId} ${version}` +
            (viewer === undefined ? " (sign in if it is not public)" : ""),
        );
      }
      return { executa: e, binary: b, stream: found.stream };
    },

    publishers: {
      async list(user: User, toolId: string): Promise<TrustedPublisher[]> {
        const e = await tool(toolId, user.id);
        return store.listPublishers(e.id);
      },
      async add(user: User, toolId: string, input: PublisherInput): Promise<TrustedPublisher> {
        const e = await tool(toolId, user.id);
        const p = normalisePublisher(input);
        if ((await store.listPublishers(e.id)).length >= MAX_PUBLISHERS_PER_TOOL) {
          throw new NexusError(
            "validation_failed",
            `${toolId} already has ${MAX_PUBLISHERS_PER_TOOL} trusted publishers; remove one first`,
          );
        }
        try {
          return await store.createPublisher({ executaId: e.id, ...p, createdAt: clock.now() });
        } catch (err) {
          if (!(err instanceof DuplicateRow)) throw err;
          throw new NexusError(
            "publisher_exists",
            `${p.repository} ${p.workflow}${p.environment ? ` (${p.environment})` : ""} is already a trusted publisher of ${toolId}`,
          );
        }
      },
      async remove(user: User, toolId: string, id: number): Promise<void> {
        const e = await tool(toolId, user.id);
        if (!(await store.deletePublisher(e.id, id))) {
          throw new NexusError(
            "not_found",
            `${toolId} has no trusted publisher ${id}; see \`anna-app executa trusted-publisher list\``,
          );
        }
      },
    },
  };

  /** The path's tool must be the token's, and still live. */
  async function checkedTool(c: UploadCaller, toolId: string): Promise<Executa> {
    if (c.executa.toolId !== toolId) {
      throw new NexusError(
        "forbidden",
        `this upload token is for ${c.executa.toolId}, not ${toolId}; mint one for ${toolId}`,
      );
    }
    return tool(toolId);
  }
}

function samePlan(a: UploadPlan, b: UploadPlan): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  if (ka.join("\n") !== kb.join("\n")) return false;
  return ka.every((k) => {
    const x = a[k]!;
    const y = b[k]!;
    return (
      x.sha256 === y.sha256 &&
      x.byteSize === y.byteSize &&
      x.filename === y.filename &&
      x.format === y.format &&
      x.entrypoint === y.entrypoint &&
      x.status === y.status &&
      x.partSize === y.partSize
    );
  });
}

export type ExecutaBinaries = ReturnType<typeof executaBinaries>;
