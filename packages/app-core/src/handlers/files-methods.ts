// `files.*` (R136–R142): two-phase uploads and presigned downloads at scope `app`, owned by this
// app and filtered by user, through the same FilesService the plugins' `files/*` uses. Other
// scopes and owners (`aps.scope.app.read` cross-app reads) answer `not_implemented` for now.
import type { FilesService, StorageGrant } from "@anna-ai/executa-host";
import { HostApiError } from "../errors/host-api-error.js";
import { callService, requireService } from "../dispatcher/service-errors.js";
import type { CallContext, MethodTable } from "../dispatcher/types.js";
import { contractMethod } from "./contract-method.js";
import { appServiceContext } from "./service-context.js";
import { checkKvKey, checkKvPrefix } from "./storage-keys.js";

function files(ctx: CallContext, owner: string | undefined): FilesService {
  if (owner !== undefined && owner !== ctx.core.appId) {
    throw new HostApiError("not_implemented", "cross-app files are not implemented", { owner });
  }
  return requireService(ctx, "files");
}

const grant: StorageGrant = {};

export function filesMethods(): MethodTable {
  return {
    "files.upload_init": contractMethod("files.upload_init", async (args, ctx) => {
      const path = checkKvKey(args.path, "path");
      const service = files(ctx, args.owner);
      const begun = await callService(ctx, () =>
        service.uploadBegin(
          { path, scope: "app", size_bytes: args.size, content_type: args.content_type },
          appServiceContext(ctx, grant),
        ),
      );
      return {
        upload_id: begun.upload_id,
        put_url: begun.put_url,
        headers: begun.headers,
        expires_at: begun.expires_at,
        // The object key is the service's business; the upload id names it (R137 `r2_key`).
        r2_key: begun.upload_id,
      };
    }),
    "files.upload_finalize": contractMethod("files.upload_finalize", async (args, ctx) => {
      const path = checkKvKey(args.path, "path");
      const service = files(ctx, args.owner);
      const size = args.size_bytes ?? args.size;
      return callService(ctx, () =>
        service.uploadComplete(
          {
            path,
            scope: "app",
            ...(args.etag == null ? {} : { etag: args.etag }),
            ...(size === undefined ? {} : { size_bytes: size }),
          },
          appServiceContext(ctx, grant),
        ),
      );
    }),
    "files.download_url": contractMethod("files.download_url", async (args, ctx) => {
      const path = checkKvKey(args.path, "path");
      const service = files(ctx, args.owner);
      const ttl = args.ttl_seconds ?? args.ttl;
      const got = await callService(ctx, () =>
        service.downloadUrl(
          { path, scope: "app", ...(ttl === undefined ? {} : { ttl_seconds: ttl }) },
          appServiceContext(ctx, grant),
        ),
      );
      return { get_url: got.get_url, expires_at: got.expires_at };
    }),
    "files.download": contractMethod("files.download", async (args, ctx) => {
      const path = checkKvKey(args.path, "path");
      const service = files(ctx, args.owner);
      const got = await callService(ctx, () =>
        service.downloadUrl(
          {
            path,
            scope: "app",
            ...(args.ttl_seconds === undefined ? {} : { ttl_seconds: args.ttl_seconds }),
          },
          appServiceContext(ctx, grant),
        ),
      );
      // R140: the host page strips `get_url` before the iframe sees the answer and clicks it.
      return {
        ok: true,
        filename: args.filename ?? path.split("/").at(-1) ?? path,
        expires_at: got.expires_at,
        get_url: got.get_url,
      };
    }),
    "files.list": contractMethod("files.list", async (args, ctx) => {
      const prefix = checkKvPrefix(args.prefix);
      const service = files(ctx, args.owner);
      // R141 (App side): out-of-range limits are clamped, not refused (Z13).
      const limit = Math.min(Math.max(args.limit ?? 100, 1), 1000);
      const listed = await callService(ctx, () =>
        service.list(
          {
            scope: "app",
            limit,
            ...(prefix === "" ? {} : { prefix }),
            ...(args.cursor == null ? {} : { cursor: args.cursor }),
          },
          appServiceContext(ctx, grant),
        ),
      );
      return {
        items: listed.items.map((item) => ({
          ...item,
          etag: item.etag ?? null,
          metadata: null,
          tags: null,
          updated_at: item.updated_at,
        })),
        next_cursor: listed.next_cursor,
      };
    }),
    "files.delete": contractMethod("files.delete", async (args, ctx) => {
      const path = checkKvKey(args.path, "path");
      const service = files(ctx, args.owner);
      return callService(ctx, () =>
        service.delete({ path, scope: "app" }, appServiceContext(ctx, grant)),
      );
    }),
  };
}
