// The JSON answers of the runtime wire and the harness: one content type, a length, never cached
// (a window list or a token must not outlive its request in any cache).
import { httpStatusOf } from "@anna-ai/app-schema/host-api";

const encoder = new TextEncoder();

export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  const bytes = encoder.encode(JSON.stringify(body));
  return new Response(bytes, {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": String(bytes.byteLength),
      "Cache-Control": "no-store",
      ...headers,
    },
  });
}

/** `{ok: false, error: {code, message}}` with the status the code maps to. */
export function errorResponse(code: string, message: string): Response {
  return jsonResponse(httpStatusOf(code), { ok: false, error: { code, message } });
}
