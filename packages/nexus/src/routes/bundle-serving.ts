// A finalized UI bundle served at `/anna-apps/{slug}/{version}/{path}` (L5908–L5923), `GET` and
// `HEAD`: the file's recorded content type, the bundle's CSP and security headers (the ones the
// dev harness sends, from app-schema), `ETag` = the file's sha256 with conditional GET, and
// immutable caching for a public exact version. The path is checked on the raw request target
// (the adapter's URL has `..` and `%2e%2e` already resolved) and then looked up in the bundle's
// file rows: nothing is ever opened by a name the client wrote, so there is no directory
// listing and no way out of the bundle. The empty path (and a folder) serves the entry.
import { Readable } from "node:stream";
import {
  bundleEntryFile,
  bundleSecurityHeaders,
  decodeBundlePath,
  mustBeIframed,
  type BundleHeaderSource,
} from "@anna-ai/app-schema";
import { rawPathOf, rawTargetOf } from "@anna-ai/app-core/http";
import { Hono } from "hono";
import type { Kysely } from "kysely";
import {
  bundleFileRow,
  findServedVersion,
  isPublicVersion,
  LATEST,
  mayLoadPrivately,
  type ServedVersion,
} from "../apps/served-bundle.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { NexusError } from "../core/errors.js";
import type { Database } from "../db/schema.js";
import type { AppDeps, Ctx, Env } from "../http/context.js";
import { authenticate } from "../http/guards.js";

export const BUNDLE_ROUTE_PREFIX = "/anna-apps/";
const SLUG_SEGMENT = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** SemVer `X.Y.Z[-pre][+build]` as the registry stores it, or `latest`. */
const VERSION_SEGMENT =
  /^(?:latest|\d{1,9}\.\d{1,9}\.\d{1,9}(?:-[0-9A-Za-z.-]{1,64})?(?:\+[0-9A-Za-z.-]{1,64})?)$/;
/** `type/subtype` with optional parameters; anything else is served as opaque bytes. */
const CONTENT_TYPE =
  /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(?:\s*;\s*[a-z0-9_-]+=[a-z0-9_.-]+)*$/i;
const IMMUTABLE = "public, max-age=31536000, immutable";

export interface BundleServingDeps {
  db: Kysely<Database>;
  blobs: BlobStore;
}

export function appBundleRoutes(deps: AppDeps, serving: BundleServingDeps): Hono<Env> {
  const app = new Hono<Env>();
  // Hono answers HEAD with the GET route and drops the body; the handler skips the blob read.
  app.get(`${BUNDLE_ROUTE_PREFIX}*`, (c) => serveBundle(c, deps, serving));
  return app;
}

async function serveBundle(c: Ctx, deps: AppDeps, serving: BundleServingDeps): Promise<Response> {
  const raw = rawPathOf(c).slice(BUNDLE_ROUTE_PREFIX.length);
  const [slug = "", version = "", ...rest] = raw.split("/");
  if (!SLUG_SEGMENT.test(slug) || !VERSION_SEGMENT.test(version)) {
    throw new NexusError(
      "not_found",
      "no such bundle: the URL is /anna-apps/<slug>/<version>/<path>, with the app's slug and an exact version (1.2.0) or latest",
    );
  }
  if (rest.length === 0) {
    // `/anna-apps/<slug>/<version>`: the entry's relative links need the folder's trailing slash.
    const query = rawTargetOf(c).slice(rawPathOf(c).length);
    return c.redirect(`${BUNDLE_ROUTE_PREFIX}${slug}/${version}/${query}`, 308);
  }
  const served = await findServedVersion(serving.db, slug, version);
  const isPublic = served !== undefined && isPublicVersion(served);
  if (
    served === undefined ||
    (!isPublic &&
      !(await mayLoadPrivately(serving.db, (await authenticate(c, deps))?.user, served)))
  ) {
    // A bundle the caller may not load is as absent as one that does not exist.
    throw new NexusError(
      "not_found",
      `no ready bundle for ${slug} ${version} that you may load (a version is public once its app is published; before that only its owner, admins and users who installed it see it)`,
    );
  }
  const rel = decodeBundlePath(rest.join("/"), bundleEntryFile(served.bundle.entry_path));
  if (typeof rel !== "string") {
    throw new NexusError("invalid_path", `bundle path ${rel.problem}`);
  }
  const file = await bundleFileRow(serving.db, served.bundle.id, rel);
  if (file === undefined) {
    throw new NexusError("not_found", `no ${rel} in ${slug} ${served.version.version}'s bundle`);
  }
  const contentType = CONTENT_TYPE.test(file.content_type)
    ? file.content_type
    : "application/octet-stream";
  const fetchDest = c.req.header("sec-fetch-dest");
  const isHtml = /^text\/html\b/i.test(contentType);
  if (
    mustBeIframed(rel, fetchDest) ||
    (isHtml && fetchDest !== undefined && fetchDest !== "iframe")
  ) {
    throw new NexusError(
      "must_be_iframed",
      "bundle HTML is served only into an iframe: open the app from the dashboard",
    );
  }
  const etag = `"${file.sha256}"`;
  const headers: Record<string, string> = {
    ...bundleSecurityHeaders(headerSourceOf(served), c.get("ownOrigin")),
    "Content-Type": contentType,
    ETag: etag,
    // `latest` moves and a private version's access can end: both revalidate (the ETag makes it
    // a 304); a public exact version never changes after finalize.
    "Cache-Control": !isPublic
      ? "private, no-cache"
      : version === LATEST
        ? "public, no-cache"
        : IMMUTABLE,
  };
  if (matchesEtag(c.req.header("if-none-match"), file.sha256)) {
    return new Response(null, { status: 304, headers });
  }
  headers["Content-Length"] = String(file.byte_size);
  if (c.req.method === "HEAD") return new Response(null, { status: 200, headers });
  const object = await serving.blobs.read(file.blob_key);
  if (object === undefined) {
    // The row says finalize verified it; the store lost it since.
    throw new NexusError("internal", `bundle file ${rel} is missing from the blob store`);
  }
  const body = Readable.toWeb(object.stream as Readable) as ReadableStream<Uint8Array>;
  return new Response(body, { status: 200, headers });
}

/**
 * What the headers are built from: the manifest's `csp_overrides` and the origins finalize
 * recorded on the bundle row. Unreadable JSON yields the base policy alone (fails closed).
 */
function headerSourceOf(served: ServedVersion): BundleHeaderSource {
  const overrides = parseJson(served.version.manifest) as { ui?: { csp_overrides?: unknown } };
  const origins = parseJson(served.bundle.external_origins);
  const cspOverrides = overrides?.ui?.csp_overrides;
  return {
    csp_overrides:
      typeof cspOverrides === "object" && cspOverrides !== null
        ? (cspOverrides as Record<string, string[]>)
        : null,
    bundle: {
      external_origins: Array.isArray(origins)
        ? origins.filter((o): o is string => typeof o === "string")
        : [],
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `If-None-Match`: `*`, or a list of (weak or strong) tags one of which is the file's. */
function matchesEtag(header: string | undefined, sha256: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  return header
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .includes(`"${sha256}"`);
}
