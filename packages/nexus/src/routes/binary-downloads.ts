// `GET /api/v1/executas/binaries/{tool_id}/{version}/{platform}/{filename}`: the bytes behind a
// finalized `binary_urls` entry. A public executa's binaries are served to anyone; an
// app_bundled one's to any signed-in user (the installs of apps that bundle it); a private one's
// to its owner only. Anything else is a 404 that does not tell "hidden" from "missing". The
// answer carries the length and the sha256 (`x-anna-sha256`, and RFC 9530's `Repr-Digest`), so a
// client can verify what it got without trusting the transport.
import { Hono } from "hono";
import { blobResponse } from "../blobs/blob-store.js";
import { authenticate } from "../http/guards.js";
import type { AppDeps, Env } from "../http/context.js";
import { NexusError } from "../core/errors.js";
import { CONTENT_TYPES } from "../hub/binaries/binary-uploads.js";

export function binaryDownloadRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  app.on(["GET", "HEAD"], "/:tool_id/:version/:platform/:filename", async (c) => {
    if (!deps.binaries) {
      throw new NexusError("unavailable", "binary downloads are not enabled on this server");
    }
    const viewer = (await authenticate(c, deps))?.user;
    const { tool_id, version, platform, filename } = c.req.param();
    const { executa, binary, stream } = await deps.binaries.download(
      tool_id,
      version,
      platform,
      filename,
      viewer,
    );
    const headers = {
      "Content-Type": CONTENT_TYPES[binary.format],
      "Content-Length": String(binary.byteSize),
      "Content-Disposition": `attachment; filename="${binary.filename}"`,
      ETag: `"${binary.sha256}"`,
      "x-anna-sha256": binary.sha256,
      "Repr-Digest": `sha-256=:${Buffer.from(binary.sha256, "hex").toString("base64")}:`,
      "X-Content-Type-Options": "nosniff",
      // A version's binary never changes once written; only public ones may sit in shared caches.
      "Cache-Control":
        executa.visibility === "public"
          ? "public, max-age=31536000, immutable"
          : "private, max-age=0",
    };
    return blobResponse(c.req.method, stream, headers);
  });
  return app;
}
