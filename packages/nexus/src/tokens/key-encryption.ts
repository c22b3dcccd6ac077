// Signing keys are sealed at rest: the database holds each private JWK encrypted with AES-256-GCM
// under a key-encryption key (KEK) that is never in the database, so a dump or a replica does
// not let anyone mint tokens. The KEK comes from ANNA_TOKEN_KEK (every node of a scaled-out
// deployment sets the same one) or, by default, a file in the data folder created on first use.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { readOrCreateDataFile } from "../core/data-file.js";

export const KEK_ENV = "ANNA_TOKEN_KEK";
export const KEK_FILE = "token-signing.kek";
const KEK_BYTES = 32;
const IV_BYTES = 12;
const VERSION = "v1";

export class KeyEncryptionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "KeyEncryptionError";
  }
}

export interface KeyEncryptionKey {
  /** Where the KEK came from (env var name or file path; never the key). */
  readonly source: string;
  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts; `aad` (the kid) is bound in. */
  seal(plaintext: string, aad: string): string;
  /** Throws KeyEncryptionError when the KEK is not the one that sealed it. */
  open(sealed: string, aad: string): string;
}

export function kekFromBytes(key: Buffer, source: string): KeyEncryptionKey {
  if (key.length !== KEK_BYTES) {
    throw new KeyEncryptionError(
      `the key-encryption key from ${source} must be ${KEK_BYTES} bytes (got ${key.length}); make one with: openssl rand -base64 32`,
    );
  }
  return {
    source,
    seal(plaintext, aad) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv).setAAD(Buffer.from(aad, "utf8"));
      const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), ct]
        .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
        .join(".");
    },
    open(sealed, aad) {
      const [version, iv, tag, ct] = sealed.split(".");
      if (version !== VERSION || !iv || !tag || ct === undefined) {
        throw new KeyEncryptionError(`sealed key for '${aad}' is not in the ${VERSION} format`);
      }
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"))
          .setAAD(Buffer.from(aad, "utf8"))
          .setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([
          decipher.update(Buffer.from(ct, "base64url")),
          decipher.final(),
        ]).toString("utf8");
      } catch (err) {
        throw new KeyEncryptionError(
          `signing key '${aad}' cannot be decrypted with the key-encryption key from ${source}: the database was sealed with another one (set ${KEK_ENV} or restore ${KEK_FILE} in the data folder)`,
          { cause: err },
        );
      }
    },
  };
}

/** ANNA_TOKEN_KEK (base64 or base64url of 32 bytes) if set, else `<dataDir>/token-signing.kek`. */
export function loadKek(env: NodeJS.ProcessEnv, dataDir: string): KeyEncryptionKey {
  const fromEnv = env[KEK_ENV]?.trim();
  if (fromEnv) return kekFromBytes(Buffer.from(fromEnv, "base64"), KEK_ENV);
  const { text, file } = readOrCreateDataFile(dataDir, KEK_FILE, () =>
    randomBytes(KEK_BYTES).toString("base64"),
  );
  return kekFromBytes(Buffer.from(text, "base64"), file);
}
