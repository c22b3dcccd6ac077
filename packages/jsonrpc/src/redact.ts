// Recordings and logs keep the shape of every message but never a secret: credentials injected
// per invoke (H10), per-invoke tokens (H15), Authorization headers, API keys and passwords.

export const REDACTED = "[REDACTED]";

/** Nesting deeper than this is replaced wholesale: recordings must not recurse without bound. */
const MAX_REDACT_DEPTH = 64;

function isSecretKey(key: string): boolean {
  const k = key.toLowerCase();
  return (
    k.endsWith("token") ||
    k === "authorization" ||
    k === "proxy-authorization" ||
    k === "api_key" ||
    k === "apikey" ||
    k === "x-api-key" ||
    k.endsWith("password") ||
    k.endsWith("secret")
  );
}

function redactCredentials(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return REDACTED;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = REDACTED;
  return out;
}

function redact(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_REDACT_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key.toLowerCase() === "credentials") out[key] = redactCredentials(item);
    else if (isSecretKey(key)) out[key] = REDACTED;
    else out[key] = redact(item, depth + 1);
  }
  return out;
}

/**
 * Returns a copy of `value` with secrets replaced by "[REDACTED]" and the structure kept:
 * every key of a `credentials` object stays, with its value hidden; values under keys ending in
 * `token`/`_token`, `authorization`, `api_key`/`apiKey`, `password` or `secret` are hidden.
 * The input is not modified.
 */
export function redactSecrets<T>(value: T): T {
  return redact(value, 0) as T;
}
