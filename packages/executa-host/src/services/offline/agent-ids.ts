// Deterministic identifiers for the offline agent, image and upload services: the same calls in
// the same order give the same ids on every run and machine. An id hashes a per-service counter
// with the caller and the call's own params, minus the correlation fields that change per
// invoke (`context`, `metadata`, top-level `invoke_id`, `_clientTimeoutS`).
import { createHash } from "node:crypto";
import { canonicalJson } from "../../storage/canonical-json.js";

const CORRELATION_FIELDS = new Set(["context", "metadata", "invoke_id", "_clientTimeoutS"]);

/** The params without per-invoke correlation fields, in canonical JSON. */
export function canonicalCallParams(params: unknown): string {
  if (params === null || typeof params !== "object" || Array.isArray(params)) {
    return canonicalJson(params ?? null);
  }
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params as Record<string, unknown>)) {
    if (!CORRELATION_FIELDS.has(key) && value !== undefined) kept[key] = value;
  }
  return canonicalJson(kept);
}

/** `hexChars` lowercase hex characters of SHA-256 over the parts (NUL-separated). */
export function hashHex(parts: readonly (string | number)[], hexChars = 32): string {
  const hash = createHash("sha256");
  parts.forEach((part, index) => {
    if (index > 0) hash.update("\0");
    hash.update(String(part), "utf8");
  });
  return hash.digest("hex").slice(0, hexChars);
}
