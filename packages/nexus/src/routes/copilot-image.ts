// Image generation for dev app sessions at /api/v1/copilot/app/image/{generate, edit}
// (real-world-cli.md §6 C7/C8): `executa dev --app-slug …` and `anna-app dev` forward a plugin's
// `image/generate|edit` (or a window's `image.*`) here with a `kind=complete` session's token, so
// the server's images model answers, its image quota applies, and the images land in its blob
// store (signed URLs). The body is the plugin's params verbatim; the answer is the bare
// `ImageResult` (`images[]`, `model`, …). The dev tool's own router has already checked `n`
// against the plugin's grant and budgets; the server keeps only the host cap (8).
import {
  IMAGE_HOST_MAX_N,
  ImageEditParamsSchema,
  ImageGenerateParamsSchema,
} from "@anna-ai/app-schema";
import type { ImageGrant, ServiceContext } from "@anna-ai/executa-host";
import { Hono } from "hono";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env } from "../http/context.js";
import { readJson } from "../http/json-body.js";
import { appSessionCaller } from "../copilot/copilot-auth.js";
import { requireCopilot } from "../copilot/copilot-services.js";
import { serviceContextFor, sessionIdentity } from "../copilot/service-contexts.js";
import { callHostService } from "../copilot/service-http-error.js";

/** A session may generate and edit: which one an app may use is its own tool's grant. */
const SESSION_IMAGE_GRANT: ImageGrant = {
  generate: true,
  edit: true,
  maxPerCallGenerate: IMAGE_HOST_MAX_N,
  maxPerCallEdit: IMAGE_HOST_MAX_N,
};

function countOf(n: number | null | undefined): number {
  const count = n ?? 1;
  if (count > IMAGE_HOST_MAX_N) {
    throw new NexusError(
      "validation_failed",
      `n is ${count}; one call makes at most ${IMAGE_HOST_MAX_N} images, make several calls for more`,
      { details: { max_n: IMAGE_HOST_MAX_N } },
    );
  }
  return count;
}

async function imageContext(c: Ctx, deps: AppDeps): Promise<ServiceContext<ImageGrant>> {
  const copilot = requireCopilot(deps);
  const caller = await appSessionCaller(c, deps, copilot.sessions);
  return serviceContextFor(sessionIdentity(caller), "image", c.req.raw.signal, SESSION_IMAGE_GRANT);
}

/** The body as the image service reads it: the reverse-call correlation fields are the client's. */
function withoutCorrelation<T extends Record<string, unknown>>(body: T): T {
  const { metadata: _metadata, context: _context, _clientTimeoutS: _timeout, ...rest } = body;
  return rest as T;
}

export function copilotImageRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();

  app.post("/generate", async (c) => {
    const ctx = await imageContext(c, deps);
    const body = await readJson(c, ImageGenerateParamsSchema);
    const n = countOf(body.n);
    const image = requireCopilot(deps).image;
    return c.json(
      await callHostService(() => image.generate({ ...withoutCorrelation(body), n }, ctx)),
    );
  });

  app.post("/edit", async (c) => {
    const ctx = await imageContext(c, deps);
    const body = await readJson(c, ImageEditParamsSchema);
    const n = countOf(body.n);
    const image = requireCopilot(deps).image;
    return c.json(await callHostService(() => image.edit({ ...withoutCorrelation(body), n }, ctx)));
  });

  return app;
}
