import type { IncomingMessage, ServerResponse } from "node:http";
import { sendError } from "../http-util.js";

/**
 * Everything past the bundle and the SDK is the dashboard's: a request that names another
 * origin — the app's sandboxed iframe (`null`), or any site open in the same browser — gets
 * 403, whatever its method or content type (a text/plain POST needs no CORS preflight).
 * Clients without an Origin header (curl, tests, scripts) are the developer's own. The page
 * may be open as localhost too; a DNS-rebound name is not accepted.
 *
 * Answers 403 and returns false for a foreign origin.
 */
export function originAllowed(
  req: IncomingMessage,
  res: ServerResponse,
  p: string,
  origins: { origin: string; localhostOrigin: string },
): boolean {
  const { origin, localhostOrigin } = origins;
  const method = req.method ?? "GET";
  const from = req.headers.origin;
  if (from !== undefined && from !== origin && from !== localhostOrigin) {
    sendError(
      res,
      403,
      "forbidden_origin",
      `${method} ${p} is answered for the dashboard (${origin}), not for ${from}`,
    );
    return false;
  }
  return true;
}
