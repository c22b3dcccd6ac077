// The one assembly of the offline host services and the ReverseRpcRouter over them, shared by
// `executa dev`, `anna-app dev` and any test that wants the production gates over offline
// answers. Each family is picked by its option (off, mock from a fixture, synthetic, memory);
// the loopback blob server behind files, uploads and image URLs starts on the first call that
// needs a URL, so a run that never touches them opens no port. The callers keep only their
// flags and banner labels.
import type { Logger } from "@anna-ai/jsonrpc";
import { ReverseRpcRouter } from "../router/reverse-rpc-router.js";
import type { RouterProgressListener } from "../router/progress.js";
import type { TokenIssuer } from "../tokens/token-issuer.js";
import type { GrantPolicy } from "./grants.js";
import type { HostServices } from "./host-services.js";
import { createOfflineAgentService } from "./offline/agent-offline.js";
import type { OfflineAgentOptions } from "./offline/agent-offline.js";
import { LoopbackBlobServer } from "./offline/blob-server.js";
import { createOfflineCredentialsService } from "./offline/credentials-offline.js";
import type { OfflineCredentialsConfig } from "./offline/credentials-offline.js";
import { createOfflineEmbeddingsService } from "./offline/embeddings-offline.js";
import type { OfflineEmbeddingsOptions } from "./offline/embeddings-offline.js";
import { createOfflineImageService } from "./offline/image-offline.js";
import type { OfflineImageOptions } from "./offline/image-offline.js";
import { lazyBlobServer, lazyService } from "./offline/lazy-blob-server.js";
import type { LazyBlobServer } from "./offline/lazy-blob-server.js";
import { createOfflineSamplingService } from "./offline/sampling-offline.js";
import type { OfflineSamplingOptions } from "./offline/sampling-offline.js";
import { offlineStorageFamilies } from "./offline/storage-offline.js";
import type { OfflineStorageChoice } from "./offline/storage-offline.js";
import { createOfflineUploadService } from "./offline/upload-offline.js";
import type { OfflineUploadOptions } from "./offline/upload-offline.js";
import { createOfflineWebService } from "./offline/web-offline.js";
import type { OfflineWebOptions } from "./offline/web-offline.js";
import { SERVICE_WIRE_METHODS } from "./service-wire-methods.js";

export interface OfflineHostServicesOptions {
  /** Gate 3 of the router: the user's grants. */
  grants: GrantPolicy;
  /** Mints the per-invoke tokens; without one, invokes carry none. */
  tokens?: TokenIssuer;
  /** Receives `executa/progress` events. */
  onProgress?: RouterProgressListener;
  logger?: Logger;
  /** Epoch ms for every service clock (storage TTLs, URL expiry, caches). Default `Date.now`. */
  clock?: () => number;
  /** Default `{ mode: "memory" }`. */
  storage?: OfflineStorageChoice;
  /** Default off (answers -32005 with its hint). */
  sampling?: OfflineSamplingOptions;
  /** Default off. */
  agent?: OfflineAgentOptions;
  /** Default synthetic vectors. */
  embeddings?: OfflineEmbeddingsOptions;
  /**
   * Default off. Mock images are served from the blob server, or as `data:` URLs with
   * `dataUrls` (a bundle whose CSP allows `img-src data:` and no loopback origin).
   */
  image?: Omit<OfflineImageOptions, "blobServer" | "clock"> & { dataUrls?: boolean };
  /**
   * Default off; the other modes put their bytes on the blob server. `false` leaves the family
   * out (the router answers its gate code and mints no upload token).
   */
  upload?: false | Omit<OfflineUploadOptions, "blobServer" | "clock">;
  /**
   * Default on: `web/fetch` for real through the SSRF guard, search from `fixture` only;
   * `false` leaves the family out (its calls answer the gate's not-available code).
   * `image_fetch` stores into this assembly's files service.
   */
  web?: false | Omit<OfflineWebOptions, "files" | "clock">;
  /** The accounts `credentials/*` answers with: provider → accounts. Default none. */
  credentials?: OfflineCredentialsConfig;
}

export interface OfflineHostServices {
  /** Every family this assembly serves; `web` and `upload` are absent when set to `false`. */
  services: Partial<HostServices>;
  /** The router over `services`: one per assembly, it creates a session per plugin. */
  router: ReverseRpcRouter;
  /** The lazily started blob server behind files, uploads and image URLs. */
  blobServer: LazyBlobServer;
  /** Stops the blob server if it started. */
  close(): Promise<void>;
}

export function createOfflineHostServices(
  options: OfflineHostServicesOptions,
): OfflineHostServices {
  const clock = options.clock;
  const withClock = clock === undefined ? {} : { clock };
  const blob = lazyBlobServer(
    () =>
      new LoopbackBlobServer({
        ...withClock,
        ...(options.logger === undefined ? {} : { logger: options.logger }),
      }),
  );
  const { storage, files } = offlineStorageFamilies(options.storage ?? { mode: "memory" }, blob, {
    ...withClock,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });

  const image = options.image ?? { mode: "off" };
  const { dataUrls, ...imageOptions } = image;
  const upload = options.upload ?? { mode: "off" };
  const services: Partial<HostServices> = {
    sampling: createOfflineSamplingService(options.sampling ?? { mode: "off" }),
    agent: createOfflineAgentService(options.agent ?? { mode: "off" }),
    storage,
    files,
    image:
      image.mode === "off" || dataUrls === true
        ? createOfflineImageService({ ...imageOptions, ...withClock })
        : lazyService<HostServices["image"]>(blob, methodsOf("image"), (server) =>
            createOfflineImageService({ ...imageOptions, ...withClock, blobServer: server }),
          ),
    ...(upload === false
      ? {}
      : {
          upload:
            upload.mode === "off"
              ? createOfflineUploadService({ ...upload, ...withClock })
              : lazyService<HostServices["upload"]>(blob, methodsOf("upload"), (server) =>
                  createOfflineUploadService({ ...upload, ...withClock, blobServer: server }),
                ),
        }),
    embeddings: createOfflineEmbeddingsService(options.embeddings ?? { mode: "synthetic" }),
    credentials: createOfflineCredentialsService({ accounts: options.credentials ?? {} }),
    ...(options.web === false
      ? {}
      : { web: createOfflineWebService({ ...options.web, ...withClock, files }) }),
  };
  const router = new ReverseRpcRouter({
    services,
    grants: options.grants,
    ...(options.tokens === undefined ? {} : { tokens: options.tokens }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  return { services, router, blobServer: blob, close: () => blob.close() };
}

/** The service methods of a family, from the one table of wire methods. */
function methodsOf<F extends "files" | "image" | "upload">(
  family: F,
): (keyof HostServices[F] & string)[] {
  return Object.keys(SERVICE_WIRE_METHODS[family]) as (keyof HostServices[F] & string)[];
}
