// createApp(deps) builds the whole HTTP surface from injected stores, clock, logger and config;
// it reads no environment and opens nothing.
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { memoryRateLimiter } from "../auth/rate-limit.js";
import { fsBlobRoutes, isBlobRoute } from "../blobs/fs-blob-routes.js";
import { FS_BLOB_ROUTE, FsBlobStore } from "../blobs/fs-blob-store.js";
import { NexusError } from "../core/errors.js";
import { authRoutes, meRoutes } from "../routes/auth.js";
import { dashboardRoutes } from "../routes/dashboard.js";
import { devicePageRoutes } from "../routes/device-page.js";
import { emailVerificationRoutes, verifyPageRoutes } from "../routes/email-verification.js";
import { deviceRoutes } from "../routes/device.js";
import { binaryRoutes, isBinaryPartRoute } from "../routes/binaries.js";
import { binaryDownloadRoutes } from "../routes/binary-downloads.js";
import { executaRoutes } from "../routes/executas.js";
import { executaCredentialRoutes } from "../routes/executa-credentials.js";
import {
  PLATFORM_CREDENTIALS_PREFIX,
  platformCredentialRoutes,
} from "../routes/platform-credentials.js";
import { appMediaRoutes } from "../routes/app-media.js";
import { isAppUploadRoute } from "../routes/app-route-helpers.js";
import { developerAppRoutes } from "../routes/developer-apps.js";
import { superAdminAppRoutes } from "../routes/super-admin-apps.js";
import { handleRoutes } from "../routes/handle.js";
import { devExecutaRoutes } from "../routes/dev-executas.js";
import { devSessionRoutes } from "../routes/dev-sessions.js";
import { storageRoutes } from "../routes/storage.js";
import { storeRoutes } from "../routes/store.js";
import { chatRoutes, isChatAttachmentUploadRoute } from "../routes/chat.js";
import { usageRoutes } from "../routes/usage.js";
import { sessionRoutes } from "../routes/sessions.js";
import { serverSettingsRoutes } from "../routes/server-settings.js";
import { healthRoutes } from "../routes/health.js";
import { jwksRoutes } from "../routes/jwks.js";
import { appBundleRoutes } from "../routes/bundle-serving.js";
import { developerReviewRoutes, superAdminReviewRoutes } from "../routes/app-review.js";
import { runtimeRoutes } from "../routes/runtime.js";
import { copilotRoutes } from "../routes/copilot.js";
import {
  INLINE_UPLOAD_MAX_BODY_BYTES,
  copilotUploadRoutes,
  isCopilotInlineRoute,
} from "../routes/copilot-upload.js";
import { storageMintRoutes } from "../routes/storage-mint.js";
import { tokenRoutes } from "../routes/tokens.js";
import type { AppDeps, Env } from "./context.js";
import { csrfGuard, hostGuard } from "./guards.js";
import { requestObserver } from "./request-log.js";

export function createApp(input: AppDeps): Hono<Env> {
  const deps: AppDeps = {
    ...input,
    rateLimiter: input.rateLimiter ?? memoryRateLimiter(input.clock),
  };
  const app = new Hono<Env>();

  app.use(requestObserver(deps));
  app.use(hostGuard(deps.config));
  const tooLarge = (): never => {
    throw new NexusError(
      "payload_too_large",
      `request body over ${deps.config.maxBodyBytes} bytes`,
    );
  };
  const jsonBodyLimit = bodyLimit({ maxSize: deps.config.maxBodyBytes, onError: tooLarge });
  const inlineBodyLimit = bodyLimit({
    maxSize: INLINE_UPLOAD_MAX_BODY_BYTES,
    onError: () => {
      throw new NexusError(
        "payload_too_large",
        `inline upload body over ${INLINE_UPLOAD_MAX_BODY_BYTES} bytes; use negotiate and confirm for bigger files`,
      );
    },
  });
  // A presigned blob PUT streams up to the object cap under its own signed limit, and its
  // signature is its only credential (no cookie), so neither the JSON cap nor CSRF applies.
  // A binary part is raw bytes up to the part size, checked exactly by its route.
  app.use((c, next) => {
    // App uploads (bundle files, listing images) and binary parts stream under their own limits.
    // So do chat attachments (chat-attachments.ts caps them while they stream).
    if (
      isBlobRoute(c.req.path) ||
      isBinaryPartRoute(c.req.path) ||
      isAppUploadRoute(c.req.path) ||
      isChatAttachmentUploadRoute(c.req.path)
    )
      return next();
    // Inline host uploads carry up to 8 MiB as base64: their own cap, counted as they arrive.
    if (isCopilotInlineRoute(c.req.path)) return inlineBodyLimit(c, next);
    // A declared length is checked from the header alone, as bodyLimit would, so the body stays
    // unread until a route reads it: Hono's bodyLimit touches `c.req.raw.body`, which makes
    // @hono/node-server build a web Request and stream for every request, GET included — about
    // a tenth of a KV write's server CPU (bench/README.md). Without a length (chunked), bodyLimit
    // counts the bytes as they arrive.
    const length = c.req.header("content-length");
    if (length !== undefined && c.req.header("transfer-encoding") === undefined) {
      return Number.parseInt(length, 10) > deps.config.maxBodyBytes ? tooLarge() : next();
    }
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    return jsonBodyLimit(c, next);
  });
  const csrf = csrfGuard();
  app.use((c, next) => (isBlobRoute(c.req.path) ? next() : csrf(c, next)));

  app.route("/", healthRoutes(deps));
  app.route("/", devicePageRoutes(deps));
  app.route("/", verifyPageRoutes());
  app.route("/api/v1/auth", authRoutes(deps));
  app.route("/api/v1/auth", emailVerificationRoutes(deps));
  app.route("/api/v1/auth", sessionRoutes(deps));
  app.route("/api/v1", meRoutes(deps));
  app.route("/api/v1/anna-apps/dev", deviceRoutes(deps));
  app.route("/api/v1/anna-apps/dev", tokenRoutes(deps));
  app.route("/api/v1/anna-apps/dev", devSessionRoutes(deps));
  app.route("/api/v1/anna-apps/dev", storageMintRoutes(deps));
  app.route("/api/v1/anna-apps/dev", devExecutaRoutes(deps));
  app.route("/api/v1/anna-apps/dev", binaryRoutes(deps));
  app.route("/", jwksRoutes(deps));
  app.route("/api/v1/developer", handleRoutes(deps));
  app.route("/api/v1/executas/binaries", binaryDownloadRoutes(deps));
  app.route("/api/v1/executas", executaRoutes(deps));
  app.route("/api/v1/developer/apps", developerAppRoutes(deps));
  app.route("/api/v1/super-admin", superAdminAppRoutes(deps));
  app.route("/api/v1/super-admin", serverSettingsRoutes(deps));
  app.route("/api/v1/app-media", appMediaRoutes(deps));
  app.route("/api/v1", storeRoutes(deps));
  app.route("/api/v1", executaCredentialRoutes(deps));
  app.route(PLATFORM_CREDENTIALS_PREFIX, platformCredentialRoutes(deps));
  app.route("/api/v1/chat", chatRoutes(deps));
  app.route("/api/v1", usageRoutes(deps));
  if (deps.storage) app.route("/api/v1/storage", storageRoutes(deps, deps.storage));
  // Presigned URLs of a filesystem blob store point here, whichever part signed them: APS files,
  // or the registry's listing images (/api/v1/app-media redirects) on a server without APS.
  const blobs = deps.storage?.blobs ?? deps.apps?.deps.blobs;
  if (blobs instanceof FsBlobStore)
    app.route(FS_BLOB_ROUTE.replace(/\/$/, ""), fsBlobRoutes(blobs));

  if (deps.runtime) app.route("/", runtimeRoutes(deps, deps.runtime));
  app.route("/api/v1/copilot", copilotRoutes(deps));
  app.route("/api/v1/copilot/app/upload", copilotUploadRoutes(deps));
  // Served bundles and the review pages read what the app registry holds: its database, and
  // for bundles its blob store.
  const registryDeps = deps.apps?.deps;
  if (registryDeps?.blobs) {
    const { db, blobs } = registryDeps;
    app.route("/", appBundleRoutes(deps, { db, blobs }));
    app.route("/api/v1/super-admin", superAdminReviewRoutes(deps, db));
    app.route("/api/v1/developer", developerReviewRoutes(deps, db));
  }
  // Last: it answers every GET no route above took (client routes of the page).
  if (deps.dashboard) app.route("/", dashboardRoutes(deps.dashboard));

  app.notFound((c) =>
    c.json(withRequestId(new NexusError("not_found", "no such endpoint").toBody(), c), 404),
  );
  app.onError((err, c) => {
    const e =
      err instanceof NexusError
        ? err
        : err instanceof HTTPException && err.status === 413
          ? new NexusError("payload_too_large", "request body too large", { cause: err })
          : new NexusError("internal", "internal server error", { cause: err });
    if (e.code === "internal") {
      deps.logger.log("error", "unhandled error", {
        request_id: c.get("requestId"),
        path: c.req.path,
        error: String(err),
        stack: (err as Error).stack,
      });
    }
    if (e.retryAfterS !== undefined) c.header("Retry-After", String(e.retryAfterS));
    return c.json(withRequestId(e.toBody(), c), e.status as 400);
  });
  return app;
}

/** The request's id in an error body, so a user's report names the log line to look for. */
function withRequestId(
  body: { detail: Record<string, unknown> },
  c: Context<Env>,
): { detail: Record<string, unknown> } {
  const id = c.get("requestId");
  return id === undefined ? body : { detail: { ...body.detail, request_id: id } };
}
