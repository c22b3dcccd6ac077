// The one place an error thrown by a route becomes an HTTP answer: an HttpError or a HostApiError
// answers its code with the status the code maps to (`httpStatusOf`); anything else is the
// server's fault, logged here and answered 500 without its details.
import type { Logger } from "@anna-ai/jsonrpc";
import { isHostApiError } from "../index.js";
import { HttpError } from "./http-error.js";
import { errorResponse } from "./json-response.js";

export function errorAnswer(error: unknown, logger: Logger, url: string): Response {
  if (error instanceof HttpError || isHostApiError(error)) {
    return errorResponse(error.code, error.message);
  }
  logger.error("route failed", { url: new URL(url).pathname, error: String(error) });
  return errorResponse("internal_error", "the server failed; see its log");
}

/** No route answers this method and path. */
export function notFoundAnswer(method: string, url: string): Response {
  return errorResponse("not_found", `no route ${method} ${new URL(url).pathname}`);
}
