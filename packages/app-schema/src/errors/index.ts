// Zod-free entry point (`@anna-ai/app-schema/errors`): plugins import the catalog at spawn time.
export { AGENT_ERRORS } from "./agent.js";
export { CREDENTIALS_ERRORS } from "./credentials.js";
export { EMBEDDINGS_ERRORS } from "./embeddings.js";
export { HOST_ERRORS } from "./host.js";
export { IMAGE_ERRORS } from "./image.js";
export {
  ALL_ERRORS,
  ERRORS_BY_FAMILY,
  findByCode,
  findByErrorCode,
  toWireError,
  type WireError,
} from "./lookup.js";
export { PROTOCOL_ERRORS } from "./protocol.js";
export { SAMPLING_ERRORS } from "./sampling.js";
export { FILES_ERRORS, STORAGE_ERRORS } from "./storage.js";
export type { CatalogEntry, ErrorFamily } from "./types.js";
export { UPLOAD_ERRORS } from "./upload.js";
export { WEB_ERRORS } from "./web.js";
