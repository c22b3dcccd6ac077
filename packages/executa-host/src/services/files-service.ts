// APS objects `files/*` (T24, R46–R50). Same scope rules as storage; the router defaults an
// omitted scope to `tool` (D-host-51: the Reference's `app` default always fails
// for plugins).
import type {
  FilesDeleteParams,
  FilesDeleteResult,
  FilesDownloadUrlParams,
  FilesDownloadUrlResult,
  FilesListParams,
  FilesListResult,
  FilesUploadBeginParams,
  FilesUploadBeginResult,
  FilesUploadCompleteParams,
  FilesUploadCompleteResult,
} from "@anna-ai/app-schema";
import type { StorageGrant } from "./grants.js";
import type { ServiceContext } from "./service-context.js";
import type { Scoped } from "./storage-service.js";

type Ctx = ServiceContext<StorageGrant>;

export interface FilesService {
  uploadBegin(params: Scoped<FilesUploadBeginParams>, ctx: Ctx): Promise<FilesUploadBeginResult>;
  uploadComplete(
    params: Scoped<FilesUploadCompleteParams>,
    ctx: Ctx,
  ): Promise<FilesUploadCompleteResult>;
  downloadUrl(params: Scoped<FilesDownloadUrlParams>, ctx: Ctx): Promise<FilesDownloadUrlResult>;
  list(params: Scoped<FilesListParams>, ctx: Ctx): Promise<FilesListResult>;
  delete(params: Scoped<FilesDeleteParams>, ctx: Ctx): Promise<FilesDeleteResult>;
}
