// Size-capped, depth-capped JSON request bodies. A body refused here answers with a Host API code
// (`invalid_arg`, `value_too_large`), so the rpc endpoint's own refusals reach the app as codes
// its HostApiError handling knows, like the dispatcher's (D-cli-dev-17).
import { HttpError } from "./http-error.js";
import { JSON_MAX_DEPTH, jsonNestsDeeperThan } from "./json-depth.js";

/** Request bodies above this are refused (an rpc envelope is small; uploads go elsewhere). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Whether a parsed JSON value is an object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A request body's fields: the object itself, or none for any other JSON value. */
export function jsonFields(value: unknown): Record<string, unknown> {
  return isJsonObject(value) ? value : {};
}

/**
 * Media types a JSON body may be sent as: JSON itself, and text/plain, which is what `fetch`
 * labels a string body with when a script sets no header. A form or multipart body is not JSON
 * whatever it holds, and is what a cross-site form would send.
 */
function jsonMediaType(contentType: string | null): boolean {
  const type = contentType?.split(";", 1)[0]?.trim().toLowerCase();
  return (
    type === undefined ||
    type === "" ||
    type === "application/json" ||
    type.endsWith("+json") ||
    type === "text/plain"
  );
}

/** The body's bytes, refused with 413 as soon as they pass `MAX_BODY_BYTES` (not after). */
async function readCapped(body: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new HttpError(
        "value_too_large",
        `the request body is over ${MAX_BODY_BYTES} bytes; large data goes through files.* uploads`,
      );
    }
    chunks.push(value);
  }
}

export async function readJsonBody(req: Request): Promise<unknown> {
  const contentType = req.headers.get("content-type");
  if (!jsonMediaType(contentType)) {
    throw new HttpError(
      "unsupported_media_type",
      `the request body is ${contentType ?? ""}; send JSON as application/json`,
    );
  }
  const chunks = req.body === null ? [] : await readCapped(req.body);
  if (chunks.length === 0) return {};
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return {};
  if (jsonNestsDeeperThan(text, JSON_MAX_DEPTH)) {
    throw new HttpError(
      "invalid_arg",
      `the request body nests arrays or objects deeper than ${JSON_MAX_DEPTH} levels; flatten it`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError("invalid_arg", "the request body is not JSON; send a JSON object", {
      cause: error,
    });
  }
}
