// Small node:http helpers: JSON answers and size-capped JSON bodies. A body refused here answers
// with a Host API code (`invalid_arg`, `value_too_large`), so the rpc endpoint's own refusals reach
// the app as codes its HostApiError handling knows, like the dispatcher's (D-cli-dev-17).
import type { IncomingMessage, ServerResponse } from "node:http";

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

export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
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
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch (error) {
    throw new HttpError(400, "invalid_arg", "the request body is not JSON; send a JSON object", {
      cause: error,
    });
  }
}

/** Opens a server-sent event stream; the first comment line tells the client it is connected. */
export function openSse(res: ServerResponse): void {
  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-store",
    Connection: "keep-alive",
  });
  res.write(": connected\n\n");
}

export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
