// Small node:http helpers: JSON answers and size-capped JSON bodies. A body refused here answers
// with a Host API code (`invalid_arg`, `value_too_large`), so the rpc endpoint's own refusals reach
// the app as codes its HostApiError handling knows, like the dispatcher's (D-cli-dev-17).
import type { IncomingMessage, ServerResponse } from "node:http";
import { JSON_MAX_DEPTH, jsonNestsDeeperThan } from "./guard/json-depth.js";

/** Request bodies above this are refused (an rpc envelope is small; uploads go elsewhere). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "HttpError";
    this.status = status;
    this.code = code;
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
    ...headers,
  });
  res.end(text);
}

export function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
): void {
  sendJson(res, status, { ok: false, error: { code, message } });
}

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
function jsonMediaType(req: IncomingMessage): boolean {
  const type = req.headers["content-type"]?.split(";", 1)[0]?.trim().toLowerCase();
  return (
    type === undefined ||
    type === "" ||
    type === "application/json" ||
    type.endsWith("+json") ||
    type === "text/plain"
  );
}

export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  if (!jsonMediaType(req)) {
    throw new HttpError(
      415,
      "unsupported_media_type",
      `the request body is ${req.headers["content-type"] ?? ""}; send JSON as application/json`,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      throw new HttpError(
        413,
        "value_too_large",
        `the request body is over ${MAX_BODY_BYTES} bytes; large data goes through files.* uploads`,
      );
    }
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  const text = Buffer.concat(chunks).toString("utf8");
  if (jsonNestsDeeperThan(text, JSON_MAX_DEPTH)) {
    throw new HttpError(
      400,
      "invalid_arg",
      `the request body nests arrays or objects deeper than ${JSON_MAX_DEPTH} levels; flatten it`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, "invalid_arg", "the request body is not JSON; send a JSON object", {
      cause: error,
    });
  }
}

export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
