// The reverse-RPC families the server's plugins reach, on the same services as everything else
// on this server: sampling and embeddings through the LLM gateway (usage accounted per user and
// app in `llm_usage`), storage and files on the SQL KV and file store that windows and
// `/api/v1/storage` use, uploads into the blob store under the user's storage quota as the
// copilot upload endpoints count them, agent sessions and images on the copilot's own (a plugin's
// sessions belong to (user, executa), the same rows the copilot HTTP endpoints keep).
import type {
  CredentialsService,
  FilesService,
  HostServices,
  StorageService,
  UploadService,
  WebService,
} from "@anna-ai/executa-host";
import type { CopilotServices } from "../copilot/copilot-services.js";
import type { HostUploads } from "../copilot/host-upload.js";

export interface PluginServiceSources {
  copilot?: CopilotServices;
  storage?: { kv: StorageService; files: FilesService };
  /** `web/*` (server-web.ts); granted only for an app's invokes under its web_grant. */
  web?: WebService;
  /** `credentials/*` on the user's connected accounts, reached through `credentials_token`. */
  platformCredentials?: CredentialsService;
}

/** The host upload service with the quota check before and the count after, as the routes do. */
export function quotaCountedUploads(uploads: HostUploads): UploadService {
  const { service } = uploads;
  const counted = async <R extends { r2_key: string; size_bytes: number; mime_type: string }>(
    userId: string,
    result: R,
  ): Promise<R> => {
    try {
      await uploads.count(userId, result.r2_key, result.size_bytes, result.mime_type);
    } catch (err) {
      // Over quota: the object goes again, so a refused upload holds nothing.
      await uploads.drop(result.r2_key).catch(() => undefined);
      throw err;
    }
    return result;
  };
  return {
    async inline(params, ctx) {
      // Base64 is 4 characters per 3 bytes: refuse over-quota before decoding.
      await uploads.checkQuota(ctx.userId, Math.floor((params.content_b64.length * 3) / 4));
      return counted(ctx.userId, await service.inline(params, ctx));
    },
    async negotiate(params, ctx) {
      await uploads.checkQuota(ctx.userId, params.expected_bytes ?? 0);
      return service.negotiate(params, ctx);
    },
    async confirm(params, ctx) {
      return counted(ctx.userId, await service.confirm(params, ctx));
    },
  };
}

export function pluginServices(sources: PluginServiceSources): Partial<HostServices> {
  const { copilot, storage, web, platformCredentials } = sources;
  return {
    ...(copilot === undefined
      ? {}
      : {
          sampling: copilot.sampling,
          embeddings: copilot.embeddings,
          agent: copilot.agent,
          image: copilot.image,
        }),
    ...(copilot?.uploads === undefined ? {} : { upload: quotaCountedUploads(copilot.uploads) }),
    ...(storage === undefined ? {} : { storage: storage.kv, files: storage.files }),
    ...(web === undefined ? {} : { web }),
    ...(platformCredentials === undefined ? {} : { credentials: platformCredentials }),
  };
}
