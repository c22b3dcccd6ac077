// The Host API contract: its error catalog and code → HTTP status table.
export {
  HOST_API_ERROR_CODES,
  HOST_API_HTTP_STATUS,
  HTTP_LAYER_ERROR_CODES,
  httpStatusOf,
  isHostApiErrorCode,
  type HostApiErrorCode,
  type HttpLayerErrorCode,
} from "./errors.js";
