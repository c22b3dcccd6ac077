import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A URL-safe random secret with `bytes` of entropy, optionally prefixed (`anna_pat_…`). */
export function randomSecret(bytes = 32, prefix = ""): string {
  return prefix + randomBytes(bytes).toString("base64url");
}

/** What is stored for a secret that only needs to be recognised, never recovered. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Constant-time equality of two strings (any lengths). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

// Unambiguous letters for codes a person types (no 0/O, 1/I/L, vowels to avoid words).
const USER_CODE_ALPHABET = "BCDFGHJKMNPQRSTVWXZ23456789";

/** `XXXX-XXXX` from a 27-letter alphabet (~38 bits). */
export function randomUserCode(): string {
  const bytes = randomBytes(8);
  let s = "";
  for (let i = 0; i < 8; i++) {
    s += USER_CODE_ALPHABET[(bytes[i] as number) % USER_CODE_ALPHABET.length];
    if (i === 3) s += "-";
  }
  return s;
}

/** Accepts lower case, spaces and a missing dash. */
export function normaliseUserCode(input: string): string {
  const raw = input.toUpperCase().replace(/[^A-Z0-9]/g, "");
  return raw.length === 8 ? `${raw.slice(0, 4)}-${raw.slice(4)}` : raw;
}
