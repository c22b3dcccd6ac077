// Listing images (logos, screenshots) at stable public URLs: /api/v1/app-media/<sha256> redirects
// to a short-lived signed URL of the blob store, so a logo_url outlives any one signature.
import { Hono } from "hono";
import { mediaKey } from "../apps/app-service.js";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Env } from "../http/context.js";

const MEDIA_URL_TTL_S = 300;

export function appMediaRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  // Hono ends a param pattern at the first `}`, so the length is checked in the handler.
  app.get("/:sha{[0-9a-f]+}", async (c) => {
    const blobs = deps.apps?.deps.blobs;
    const sha = c.req.param("sha");
    const key = mediaKey(sha);
    if (!blobs || sha.length !== 64 || (await blobs.head(key)) === undefined) {
      throw new NexusError("not_found", "no such image");
    }
    const signed = await blobs.presignGet(key, { ttlSeconds: MEDIA_URL_TTL_S });
    c.header("Cache-Control", `public, max-age=${MEDIA_URL_TTL_S - 30}`);
    return c.redirect(signed.url, 302);
  });
  return app;
}
