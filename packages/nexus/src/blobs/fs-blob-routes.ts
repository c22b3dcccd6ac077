// The presigned-URL endpoint of the filesystem blob store. The URL's signature is the only
// credential (no cookie, no token), so the route is exempt from the CSRF guard and the JSON body
// cap (createApp), answers CORS for any origin without credentials (an app iframe uploads from
// its own origin), and answers refusals in S3's XML shape, as clients of presigned URLs expect.
import { Hono } from "hono";
import { contentDisposition, type SignedGrant } from "@anna-ai/executa-host";
import type { Env } from "../http/context.js";
import { blobResponse } from "./blob-store.js";
import { FS_BLOB_ROUTE, type FsBlobStore } from "./fs-blob-store.js";

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "PUT, GET, HEAD",
  "Access-Control-Allow-Headers": "Content-Type",
  "Access-Control-Expose-Headers": "ETag",
  "Access-Control-Max-Age": "600",
};

function s3Error(status: number, code: string, message: string): Response {
  const esc = message.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${esc}</Message></Error>`,
    { status, headers: { "Content-Type": "application/xml", ...CORS_HEADERS } },
  );
}

export function isBlobRoute(path: string): boolean {
  return path.startsWith(FS_BLOB_ROUTE);
}

export function fsBlobRoutes(store: FsBlobStore): Hono<Env> {
  const app = new Hono<Env>();
  app.options("/*", () => new Response(null, { status: 204, headers: CORS_HEADERS }));
  app.on(["PUT", "GET", "HEAD"], "/*", async (c) => {
    let key: string;
    try {
      key = decodeURIComponent(new URL(c.req.url).pathname.slice(FS_BLOB_ROUTE.length));
    } catch {
      return s3Error(400, "InvalidURI", "Could not parse the specified URI.");
    }
    const q = new URL(c.req.url).searchParams;
    const expiresAtMs = Number(q.get("X-Expires"));
    const maxBytes = q.get("X-Max-Bytes");
    const filename = q.get("X-Filename");
    const method = c.req.method === "PUT" ? "PUT" : "GET";
    const grant: SignedGrant =
      method === "PUT"
        ? {
            method,
            key,
            expiresAtMs,
            contentType: c.req.header("content-type") ?? "",
            ...(maxBytes === null ? {} : { maxBytes: Number(maxBytes) }),
          }
        : { method, key, expiresAtMs, ...(filename === null ? {} : { filename }) };
    const refusal = store.verify(grant, q.get("X-Signature") ?? "");
    if (refusal === "bad_signature") {
      return s3Error(
        403,
        "SignatureDoesNotMatch",
        method === "PUT"
          ? "The request signature does not match: the URL is for another object, or the Content-Type header differs from the one the URL was signed for."
          : "The request signature does not match the URL it was issued as.",
      );
    }
    if (refusal === "expired") return s3Error(403, "AccessDenied", "Request has expired");
    if (method === "PUT") {
      const cap = Number(grant.maxBytes);
      const declared = Number(c.req.header("content-length"));
      if (Number.isFinite(declared) && declared > cap) {
        return s3Error(
          413,
          "EntityTooLarge",
          `The upload exceeds the ${cap} bytes it was signed for.`,
        );
      }
      const outcome = await store.put(key, grant.contentType ?? "", c.req.raw.body, cap);
      if (!outcome.ok) return s3Error(413, "EntityTooLarge", outcome.message);
      return new Response(null, {
        status: 200,
        headers: { ETag: `"${outcome.head.etag}"`, ...CORS_HEADERS },
      });
    }
    const found = await store.read(key);
    if (found === undefined) return s3Error(404, "NoSuchKey", "The specified key does not exist.");
    const { head, stream } = found;
    const headers = {
      "Content-Type": head.contentType,
      "Content-Length": String(head.sizeBytes),
      "Content-Disposition": contentDisposition(head.contentType, filename ?? undefined),
      ETag: `"${head.etag}"`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, max-age=0",
      ...CORS_HEADERS,
    };
    return blobResponse(c.req.method, stream, headers);
  });
  return app;
}
