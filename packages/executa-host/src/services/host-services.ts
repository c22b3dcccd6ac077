import type { AgentService } from "./agent-service.js";
import type { CredentialsService } from "./credentials-service.js";
import type { EmbeddingsService } from "./embeddings-service.js";
import type { FilesService } from "./files-service.js";
import type { ImageService } from "./image-service.js";
import type { SamplingService } from "./sampling-service.js";
import type { StorageService } from "./storage-service.js";
import type { UploadService } from "./upload-service.js";
import type { WebService } from "./web-service.js";

/**
 * The capabilities the host offers plugins (and, through the Host API dispatcher, apps). A
 * missing service means the family is unavailable on this host: the router answers with the
 * family's NOT_NEGOTIATED/NOT_GRANTED code and mints no token for it.
 */
export interface HostServices {
  sampling: SamplingService;
  storage: StorageService;
  files: FilesService;
  agent: AgentService;
  image: ImageService;
  upload: UploadService;
  embeddings: EmbeddingsService;
  /**
   * `web.*`/`credentials.*` for apps (dispatcher) and `web/*`/`credentials/*` for plugins
   * (router). Optional: a host without them answers the family's gate code (web -32527,
   * credentials -32061) and mints no `credentials_token`.
   */
  web?: WebService;
  credentials?: CredentialsService;
}
