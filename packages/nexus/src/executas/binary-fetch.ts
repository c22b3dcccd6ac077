// The `fetch` the server installs executas with. A `binary_urls` entry that points at this
// server's own download route is answered from the blob store (no HTTP round trip to itself,
// and no dependence on the public origin being reachable from inside the server); any other URL
// must be https and is checked against the SSRF policy on every redirect hop, because the URL is
// whatever a publisher wrote and the server must not be made to fetch its own network.
import { Readable } from "node:stream";
import { SsrfPolicy } from "@anna-ai/executa-host";
import type { Kysely } from "kysely";
import type { BlobStore } from "../blobs/blob-store.js";
import type { Database } from "../db/schema.js";
import { BINARY_DOWNLOAD_ROUTE, CONTENT_TYPES } from "../hub/binaries/binary-uploads.js";
import { sqlBinaryStore } from "../hub/binaries/binary-store.js";
import { sqlExecutaStore } from "../hub/executa-store.js";

/** GitHub release assets redirect once or twice (to their object store); more is a loop. */
export const INSTALL_MAX_REDIRECTS = 5;

export interface BinaryFetchOptions {
  db: Kysely<Database>;
  blobs: BlobStore;
  /** The origins this server's own download URLs carry (public origin, listening address). */
  selfOrigins: () => readonly string[];
  /** For remote assets; default the global fetch. */
  fetch?: typeof globalThis.fetch;
  /** Default: the SSRF policy of the web tools (no private, loopback or metadata addresses). */
  ssrf?: SsrfPolicy;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function notFound(what: string): Response {
  return new Response(`${what} is not in this server's blob store`, { status: 404 });
}

/** The four path segments after the download route, or undefined for any other path. */
function ownAssetPath(url: URL): [string, string, string, string] | undefined {
  const prefix = `${BINARY_DOWNLOAD_ROUTE}/`;
  if (!url.pathname.startsWith(prefix)) return undefined;
  const parts = url.pathname.slice(prefix.length).split("/").map(decodeURIComponent);
  if (parts.length !== 4 || parts.some((p) => p === "")) return undefined;
  return parts as [string, string, string, string];
}

export function binaryFetch(options: BinaryFetchOptions): typeof globalThis.fetch {
  const executas = sqlExecutaStore(options.db);
  const binaries = sqlBinaryStore(options.db);
  const ssrf = options.ssrf ?? new SsrfPolicy();
  const remote = options.fetch ?? globalThis.fetch;

  async function fromBlobStore(url: URL, parts: [string, string, string, string]) {
    const [toolId, version, platform, filename] = parts;
    const executa = await executas.findByToolId(toolId);
    const binary = executa && (await binaries.findBinary(executa.id, version, platform));
    if (!binary || binary.filename !== filename) return notFound(url.pathname);
    const found = await options.blobs.read(binary.blobKey);
    if (!found) return notFound(`${url.pathname} (blob ${binary.blobKey})`);
    return new Response(Readable.toWeb(found.stream as Readable) as ReadableStream, {
      status: 200,
      headers: {
        "content-type": CONTENT_TYPES[binary.format],
        "content-length": String(binary.byteSize),
      },
    });
  }

  async function fromRemote(first: URL, init: RequestInit | undefined): Promise<Response> {
    let url = first;
    for (let hop = 0; hop <= INSTALL_MAX_REDIRECTS; hop++) {
      if (url.protocol !== "https:") {
        throw new TypeError(
          `${url.href}: the server installs executas only over https (or from its own blob store); ask the publisher for an https URL`,
        );
      }
      await ssrf.check(url.href);
      const res = await remote(url, { ...init, redirect: "manual" });
      const location = res.headers.get("location");
      if (!REDIRECT_STATUSES.has(res.status) || location === null) return res;
      await res.body?.cancel().catch(() => undefined);
      url = new URL(location, url);
    }
    throw new TypeError(`${first.href}: more than ${INSTALL_MAX_REDIRECTS} redirects`);
  }

  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const parts = ownAssetPath(url);
    if (parts !== undefined && options.selfOrigins().includes(url.origin)) {
      return fromBlobStore(url, parts);
    }
    return fromRemote(url, init);
  };
}
