// The one way the dashboard talks to Nexus: same-origin fetch of the public /api/v1 API with the
// session cookie. Nexus's CSRF guard accepts a write whose Origin is its own, which a same-origin
// fetch always sends, so no token is needed. Errors keep the server's `detail.code` and message.

/** A failed API call: the HTTP status and the server's error code and message. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Nexus answers errors as `{detail: {code, message, …}}` (core/errors.ts). */
async function errorOf(res: Response, what: string): Promise<ApiError> {
  try {
    const body = (await res.json()) as { detail?: { code?: unknown; message?: unknown } };
    const code = typeof body.detail?.code === "string" ? body.detail.code : `http_${res.status}`;
    const message =
      typeof body.detail?.message === "string" ? body.detail.message : `HTTP ${res.status}`;
    return new ApiError(res.status, code, message);
  } catch {
    return new ApiError(res.status, `http_${res.status}`, `${what}: HTTP ${res.status}`);
  }
}

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Calls `/api/v1{path}` and returns its JSON (undefined for 204). */
export async function api<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`/api/v1${path}`, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw await errorOf(res, `${method} ${path}`);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** Sends `file`'s bytes as the body of `POST /api/v1{path}` (its type as Content-Type). */
export async function upload<T>(path: string, file: File): Promise<T> {
  const res = await fetch(`/api/v1${path}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": file.type || "application/octet-stream" },
    body: file,
  });
  if (!res.ok) throw await errorOf(res, `upload of ${file.name}`);
  return (await res.json()) as T;
}

/** A path segment from user data, escaped. */
export const seg = (s: string | number) => encodeURIComponent(String(s));

/** What to show a person for a failed call. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
