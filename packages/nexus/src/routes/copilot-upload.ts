// Host upload at /api/v1/copilot/app/upload/{negotiate, confirm, inline} (T28, R61–R63): the
// bytes go to the server's blob store under `exec-uploads/nexus/<user>/<tool>/<invoke>/…` and
// count against the user's storage quota. Who uploads: a plugin's per-invoke `upload_token`, an
// app window (`X-Anna-App-Token`) or an app session's token; a key is confirmed only by the
// user, tool and invoke (window, session) it was issued to.
import { INLINE_UPLOAD_MAX_BYTES } from "@anna-ai/app-schema";
import type { UploadGrant } from "@anna-ai/executa-host";
import { Hono } from "hono";
import { z } from "zod";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env } from "../http/context.js";
import { readJson } from "../http/json-body.js";
import { requireKeyring } from "../http/token-auth.js";
import { appSessionCaller, windowCaller } from "../copilot/copilot-auth.js";
import type { HostUploads } from "../copilot/host-upload.js";
import { callHostService } from "../copilot/service-http-error.js";
import type { ServiceContext } from "@anna-ai/executa-host";
import { APP_SESSION_AUDIENCE, FAMILY_AUDIENCES } from "../tokens/audiences.js";
import { verifyNexusToken } from "../tokens/verify-token.js";
import { requireCopilot } from "../copilot/copilot-services.js";
import { bearerAudience, serviceContextFor, sessionIdentity } from "../copilot/service-contexts.js";

/** Base64 of the inline cap, plus room for the JSON around it. */
export const INLINE_UPLOAD_MAX_BODY_BYTES =
  Math.ceil((INLINE_UPLOAD_MAX_BYTES * 4) / 3) + 64 * 1024;

const Common = { filename: z.string().min(1).max(512), purpose: z.string().max(64).nullish() };
const NegotiateBody = z.object({
  ...Common,
  mime_type: z.string().min(1).max(255),
  expected_bytes: z.number().int().positive().nullish(),
  size_bytes: z.number().int().positive().nullish(),
});
const InlineBody = z.object({
  ...Common,
  mime_type: z.string().min(1).max(255),
  content_b64: z.string().min(1),
});
const ConfirmBody = z.object({ r2_key: z.string().min(1).max(1024) });

/** Paths whose bodies are bigger than the JSON cap (inline uploads carry base64 bytes). */
export function isCopilotInlineRoute(path: string): boolean {
  return path === "/api/v1/copilot/app/upload/inline";
}

function requireUploads(deps: AppDeps): HostUploads {
  const uploads = requireCopilot(deps).uploads;
  if (!uploads)
    throw new NexusError("unavailable", "host upload needs a blob store on this server");
  return uploads;
}

async function uploader(
  c: Ctx,
  deps: AppDeps,
  uploads: HostUploads,
): Promise<ServiceContext<UploadGrant>> {
  const grant: UploadGrant = { maxFileBytes: uploads.limits.maxFileBytes };
  const signal = c.req.raw.signal;
  const window = await windowCaller(c, deps);
  if (window) {
    const app = `app:${window.appId}`;
    const who = {
      userId: String(window.userId),
      toolId: app,
      invokeId: window.windowUuid,
      appId: app,
    };
    return serviceContextFor(who, "upload", signal, grant);
  }
  if (bearerAudience(c.req.header("authorization")) === APP_SESSION_AUDIENCE) {
    const caller = await appSessionCaller(c, deps, requireCopilot(deps).sessions);
    return serviceContextFor(sessionIdentity(caller), "upload", signal, grant);
  }
  const t = await verifyNexusToken(
    { keyring: requireKeyring(deps), stores: deps.stores, clock: deps.clock },
    bearerOrThrow(c),
    FAMILY_AUDIENCES.upload,
  );
  const who = { userId: t.userId, toolId: t.toolId, invokeId: t.invokeId, appId: undefined };
  return serviceContextFor(who, "upload", signal, grant);
}

function bearerOrThrow(c: Ctx): string {
  const token = /^bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
  if (!token) {
    throw new NexusError(
      "unauthenticated",
      "send an upload_token or app_session_token as Authorization: Bearer, or a window token as X-Anna-App-Token",
    );
  }
  return token;
}

export function copilotUploadRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();

  app.post("/negotiate", async (c) => {
    const uploads = requireUploads(deps);
    const ctx = await uploader(c, deps, uploads);
    const body = await readJson(c, NegotiateBody);
    const declared = body.expected_bytes ?? body.size_bytes ?? undefined;
    if (declared !== undefined && declared > uploads.limits.maxFileBytes) {
      throw new NexusError(
        "payload_too_large",
        `a file of ${declared} bytes is over the ${uploads.limits.maxFileBytes}-byte per-file limit`,
        { details: { max_bytes: uploads.limits.maxFileBytes } },
      );
    }
    await callHostService(() => uploads.checkQuota(ctx.userId, declared ?? 0));
    const result = await callHostService(() =>
      uploads.service.negotiate(
        {
          mode: "negotiate",
          filename: body.filename,
          mime_type: body.mime_type,
          ...(declared !== undefined ? { expected_bytes: declared } : {}),
          purpose: body.purpose ?? "user_artifact",
        },
        ctx,
      ),
    );
    return c.json(result);
  });

  app.post("/confirm", async (c) => {
    const uploads = requireUploads(deps);
    const ctx = await uploader(c, deps, uploads);
    const body = await readJson(c, ConfirmBody);
    const result = await callHostService(() =>
      uploads.service.confirm({ mode: "confirm", r2_key: body.r2_key }, ctx),
    );
    await countOrDrop(uploads, ctx.userId, result.r2_key, result.size_bytes, result.mime_type);
    return c.json(result);
  });

  app.post("/inline", async (c) => {
    const uploads = requireUploads(deps);
    const ctx = await uploader(c, deps, uploads);
    const length = Number(c.req.header("content-length") ?? "0");
    if (length > INLINE_UPLOAD_MAX_BODY_BYTES) {
      throw new NexusError(
        "payload_too_large",
        `inline uploads carry at most ${INLINE_UPLOAD_MAX_BYTES} bytes; use negotiate and confirm for bigger files`,
      );
    }
    const body = await readJson(c, InlineBody);
    // Base64 is 4 characters per 3 bytes: refuse over-quota before decoding.
    await callHostService(() =>
      uploads.checkQuota(ctx.userId, Math.floor((body.content_b64.length * 3) / 4)),
    );
    const result = await callHostService(() =>
      uploads.service.inline(
        {
          mode: "inline",
          filename: body.filename,
          mime_type: body.mime_type,
          content_b64: body.content_b64,
          purpose: body.purpose ?? "user_artifact",
        },
        ctx,
      ),
    );
    await countOrDrop(uploads, ctx.userId, result.r2_key, result.size_bytes, result.mime_type);
    return c.json(result);
  });

  return app;
}

/** Counts the stored file; over quota, the object is removed again so it holds nothing. */
async function countOrDrop(
  uploads: HostUploads,
  userId: string,
  key: string,
  sizeBytes: number,
  contentType: string,
): Promise<void> {
  try {
    await callHostService(() => uploads.count(userId, key, sizeBytes, contentType));
  } catch (err) {
    await uploads.drop(key).catch(() => {});
    throw err;
  }
}
