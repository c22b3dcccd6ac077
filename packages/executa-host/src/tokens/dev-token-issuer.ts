// Offline tools (the dev harness, tests) mint per-invoke tokens with a local Ed25519 key (H15).
// The key lives in a JWK file so tokens minted by one run still verify in the next.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { exportJWK, generateKeyPair } from "jose";
import type { JWK } from "jose";
import { JwtTokenIssuer, TokenError } from "./token-issuer.js";

export interface DevTokenIssuerOptions {
  /**
   * A JWK file holding the private key. Loaded when it exists, else generated and written there
   * (mode 0600). Omit for an in-memory key that lives as long as the issuer.
   */
  keyPath?: string;
  issuer?: string;
  now?: () => number;
}

export async function createDevTokenIssuer(
  options: DevTokenIssuerOptions = {},
): Promise<JwtTokenIssuer> {
  const privateJwk = options.keyPath
    ? ((await loadJwk(options.keyPath)) ?? (await generateAndSave(options.keyPath)))
    : await generateJwk();
  return new JwtTokenIssuer({
    privateJwk,
    ...(options.issuer !== undefined ? { issuer: options.issuer } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
}

async function generateJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
  return exportJWK(privateKey);
}

async function loadJwk(path: string): Promise<JWK | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as JWK;
  } catch (error) {
    throw new TokenError("TOKEN_MALFORMED", `dev key file ${path} is not JSON`, { cause: error });
  }
}

async function generateAndSave(path: string): Promise<JWK> {
  const jwk = await generateJwk();
  await mkdir(dirname(path), { recursive: true });
  // `wx` so two processes starting at once do not overwrite each other's key.
  try {
    await writeFile(path, JSON.stringify(jwk) + "\n", { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      const existing = await loadJwk(path);
      if (existing) return existing;
    }
    throw error;
  }
  return jwk;
}
