// The one redaction list. Recordings, traces and logs keep the shape of every message but never
// a secret: credentials injected per invoke, per-invoke and window tokens, the token an
// `auth.refresh` carries, Authorization headers, API keys and passwords (by key), and any value
// the caller knows to be secret (`--credential`/`--account` values, minted tokens) wherever it
// appears inside a string, and every JWT (window and per-invoke tokens are JWTs) wherever it
// appears, a `?t=` in a window URL included, and every developer token (`anna_pat_…`, the PAT
// `anna-app login` saves). Zod-free (`@anna-ai/app-schema/redact`): plugins load it at spawn.

export const REDACTED = "[REDACTED]";

/** Nesting deeper than this is replaced wholesale: recordings must not recurse without bound. */
const MAX_REDACT_DEPTH = 64;

/** Values shorter than this are not hunted inside strings: they would redact ordinary words. */
export const MIN_SECRET_VALUE_CHARS = 4;

/** Whether the value under `key` is a secret whatever it holds. */
export function isSecretKey(key: string): boolean {
  const k = key.toLowerCase();
  return (
    k.endsWith("token") ||
    k === "authorization" ||
    k === "proxy-authorization" ||
    k === "cookie" ||
    k === "set-cookie" ||
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

/** A compact JWS: `eyJ…` header, `eyJ…` payload, signature (base64url). */
const JWT_PATTERN = /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{16,}/g;
/** A Nexus developer token (PAT): the prefix and a random base64url secret. */
const PAT_PATTERN = /anna_pat_[\w-]{16,}/g;

function redact(value: unknown, depth: number, secrets: readonly string[]): unknown {
  if (typeof value === "string") return maskText(value, secrets);
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_REDACT_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1, secrets));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key.toLowerCase() === "credentials") out[key] = redactCredentials(item);
    else if (isSecretKey(key)) out[key] = REDACTED;
    else out[key] = redact(item, depth + 1, secrets);
  }
  return out;
}

/**
 * `text` with every JWT, every PAT and every occurrence of each secret replaced (secrets as `secretValues`
 * orders them).
 */
export function maskText(text: string, secrets: readonly string[] = []): string {
  let out = text.includes("eyJ") ? text.replace(JWT_PATTERN, REDACTED) : text;
  if (out.includes("anna_pat_")) out = out.replace(PAT_PATTERN, REDACTED);
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * The secret values worth hunting: unique, at least MIN_SECRET_VALUE_CHARS long, longest first
 * so a secret containing another is hidden whole.
 */
export function secretValues(values: Iterable<string>): string[] {
  return [...new Set(values)]
    .filter((v) => v.length >= MIN_SECRET_VALUE_CHARS)
    .sort((a, b) => b.length - a.length);
}

/**
 * Returns a copy of `value` with secrets replaced by "[REDACTED]" and the structure kept:
 * every key of a `credentials` object stays, with its value hidden; values under keys ending in
 * `token`/`_token`, `authorization`, `cookie`, `api_key`/`apiKey`, `password` or `secret` are
 * hidden; every JWT and each of `secrets` (see `secretValues`) is cut out of every string. The input is
 * not modified.
 */
export function redactSecrets<T>(value: T, secrets: readonly string[] = []): T {
  return redact(value, 0, secrets) as T;
}

/** Secret values learnt during a session (minted tokens, flags), applied with the key list. */
export class Redactor {
  private secrets: string[] = [];

  constructor(values: Iterable<string> = []) {
    this.add(values);
  }

  add(values: Iterable<string>): void {
    this.secrets = secretValues([...this.secrets, ...values]);
  }

  redact<T>(value: T): T {
    return redactSecrets(value, this.secrets);
  }

  text(text: string): string {
    return maskText(text, this.secrets);
  }
}
