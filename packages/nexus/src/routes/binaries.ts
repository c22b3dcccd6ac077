// Executa binary direct upload and trusted publishers at /api/v1/anna-apps/dev (real-world-cli.md
// §B): B1 mint and B6–B8 take the owner's Bearer PAT (scope `executas:publish`), B2 takes a CI's
// OIDC id-token and no credential, B3–B5 take the upload token B1/B2 gave. Errors keep the
// `{detail: {code, message}}` shape the published CLI's B2–B5 parser reads. Parts are raw bytes
// of up to the configured part size, so their route is exempt from the JSON body cap
// (`isBinaryPartRoute`, createApp) and enforces its own, exact, limit.
import {
  BINARY_UPLOAD_PLATFORM_KEYS,
  isAppVersion,
  MAX_BINARY_PLATFORMS,
} from "@anna-ai/app-schema";
import { Hono } from "hono";
import { z } from "zod";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env } from "../http/context.js";
import { countMint } from "../http/dev-auth.js";
import { readJson } from "../http/json-body.js";
import { bearerOf } from "../http/token-auth.js";
import type { AssetRequest, ExecutaBinaries } from "../hub/binaries/binary-uploads.js";
import type { TrustedPublisher } from "../hub/binaries/binary-store.js";
import { TOOL_ID } from "./dev-sessions.js";
import { publisher } from "./executas.js";

const PART_ROUTE = /^\/api\/v1\/anna-apps\/dev\/executas\/[^/]+\/binaries\/[^/]+\/part$/;

/** The one route whose body is raw bytes past the JSON cap. */
export function isBinaryPartRoute(path: string): boolean {
  return PART_ROUTE.test(path);
}

const FILENAME = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._+-]{0,199}$/,
    "must be a file name (letters, digits, '.', '_', '+', '-'), no folders",
  );
const Asset = z.object({
  filename: FILENAME,
  sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters")
    .transform((s) => s.toLowerCase()),
  byte_size: z.number().int().min(1, "must be at least 1 byte"),
  format: z.enum(
    ["tar.gz", "tgz", "zip"],
    "must be tar.gz, tgz or zip (bare executables are refused)",
  ),
  entrypoint: z.string().min(1).max(500).nullish(),
});
const InitBody = z.object({
  executa_version: z.string().max(64).refine(isAppVersion, "must be SemVer X.Y.Z[-prerelease]"),
  assets: z.record(z.string(), Asset),
  dry_run: z.boolean().optional(),
});

function binaries(deps: AppDeps): ExecutaBinaries {
  if (!deps.binaries) {
    throw new NexusError("unavailable", "binary uploads are not enabled on this server");
  }
  return deps.binaries;
}

function toolIdOf(c: Ctx): string {
  const r = TOOL_ID.safeParse(c.req.param("tool_id"));
  if (!r.success) throw new NexusError("not_found", "no such tool_id");
  return r.data;
}

function publisherView(p: TrustedPublisher) {
  return {
    id: p.id,
    repository: p.repository,
    workflow: p.workflow,
    environment: p.environment,
    created_at: new Date(p.createdAt).toISOString(),
    last_used_at: p.lastUsedAt === null ? null : new Date(p.lastUsedAt).toISOString(),
  };
}

export function binaryRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  const limits = deps.config.binaries;

  app.post("/upload-session/mint", async (c) => {
    const p = await publisher(c, deps);
    const body = await readJson(c, z.object({ tool_id: TOOL_ID }));
    await countMint(deps, p.user.id);
    return c.json(await binaries(deps).mintForOwner(p.user, body.tool_id));
  });

  app.post("/upload-session/oidc-exchange", async (c) => {
    const body = await readJson(
      c,
      z.object({ tool_id: TOOL_ID, oidc_token: z.string().min(1).max(16_384) }),
    );
    const { mints, mintWindowMs } = deps.config.rateLimits;
    const wait =
      (await deps.rateLimiter?.hit(`oidc:${c.get("clientIp")}`, mints, mintWindowMs)) ?? 0;
    if (wait > 0) {
      throw new NexusError("rate_limited", `too many OIDC exchanges; retry in ${wait} s`, {
        retryAfterS: wait,
      });
    }
    return c.json(await binaries(deps).mintForOidc(body.tool_id, body.oidc_token));
  });

  const caller = (c: Ctx) => binaries(deps).caller(bearerOf(c));

  app.post("/executas/:tool_id/binaries/init", async (c) => {
    const who = await caller(c);
    const body = await readJson(c, InitBody);
    const platforms = Object.keys(body.assets);
    if (platforms.length === 0 || platforms.length > MAX_BINARY_PLATFORMS) {
      throw new NexusError(
        "validation_failed",
        `assets: give 1–${MAX_BINARY_PLATFORMS} platforms (got ${platforms.length})`,
      );
    }
    const assets: Record<string, AssetRequest> = {};
    for (const [platform, a] of Object.entries(body.assets)) {
      if (!(BINARY_UPLOAD_PLATFORM_KEYS as readonly string[]).includes(platform)) {
        throw new NexusError(
          "validation_failed",
          `assets.${platform}: unknown platform; use one of ${BINARY_UPLOAD_PLATFORM_KEYS.join(", ")}`,
        );
      }
      if (a.byte_size > limits.maxArtifactBytes) {
        throw new NexusError(
          "payload_too_large",
          `assets.${platform}: ${a.byte_size} bytes is over this server's ${limits.maxArtifactBytes}-byte limit per artifact`,
        );
      }
      assets[platform] = {
        filename: a.filename,
        sha256: a.sha256,
        byteSize: a.byte_size,
        format: a.format === "tgz" ? "tar.gz" : a.format,
        entrypoint: a.entrypoint ?? null,
      };
    }
    return c.json(
      await binaries(deps).init(who, toolIdOf(c), {
        version: body.executa_version,
        assets,
        dryRun: body.dry_run === true,
      }),
    );
  });

  app.post("/executas/:tool_id/binaries/:upload_id/part", async (c) => {
    const who = await caller(c);
    const length = c.req.header("content-length");
    const declared = length === undefined ? undefined : Number.parseInt(length, 10);
    const out = await binaries(deps).part(
      who,
      toolIdOf(c),
      c.req.param("upload_id"),
      c.req.query("platform") ?? "",
      c.req.query("index") ?? "",
      c.req.raw.body as AsyncIterable<Uint8Array> | null,
      Number.isFinite(declared) ? declared : undefined,
    );
    return c.json(out);
  });

  app.post("/executas/:tool_id/binaries/:upload_id/finalize", async (c) => {
    const who = await caller(c);
    await readJson(c, z.object({}).loose());
    // The URL is stored and installed from by every node (D-nexus-169): with a public origin it
    // carries that one, not the address of the node this upload reached (which the other nodes
    // of a cluster neither recognise as theirs nor may fetch).
    const origin = deps.config.publicOrigin
      ? new URL(deps.config.publicOrigin).origin
      : c.get("ownOrigin");
    return c.json(
      await binaries(deps).finalize(who, toolIdOf(c), c.req.param("upload_id"), origin),
    );
  });

  const owner = async (c: Ctx) => (await publisher(c, deps)).user;

  app.get("/executas/:tool_id/trusted-publishers", async (c) => {
    const rows = await binaries(deps).publishers.list(await owner(c), toolIdOf(c));
    return c.json({ trusted_publishers: rows.map(publisherView) });
  });

  app.post("/executas/:tool_id/trusted-publishers", async (c) => {
    const user = await owner(c);
    const body = await readJson(
      c,
      z.object({
        repository: z.string().max(201),
        workflow: z.string().max(300),
        environment: z.string().max(255).nullish(),
      }),
    );
    const row = await binaries(deps).publishers.add(user, toolIdOf(c), {
      repository: body.repository,
      workflow: body.workflow,
      environment: body.environment ?? undefined,
    });
    return c.json(publisherView(row), 201);
  });

  app.delete("/executas/:tool_id/trusted-publishers/:id{[0-9]+}", async (c) => {
    const user = await owner(c);
    const raw = c.req.param("id");
    const id = raw.length > 12 ? -1 : Number(raw);
    await binaries(deps).publishers.remove(user, toolIdOf(c), id);
    return c.json({ deleted: true, id });
  });

  return app;
}
