// Passwords are hashed with Node's scrypt (no native addon, no download). The parameters are
// stored in the hash string so they can be raised later without invalidating old hashes.
import { randomBytes, scrypt as scryptCb, type ScryptOptions, timingSafeEqual } from "node:crypto";

const scrypt = (pw: string, salt: Buffer, len: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(pw, salt, len, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** OWASP's scrypt floor (N=2^17, r=8, p=1): ~128 MiB, tens of ms. */
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };
/** Cheap parameters for tests only. */
export const TEST_SCRYPT: ScryptParams = { N: 2 ** 10, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;
export const MIN_PASSWORD_CHARS = 8;
export const MAX_PASSWORD_CHARS = 1024;

function maxmem(p: ScryptParams): number {
  return 128 * p.N * p.r * 2;
}

export async function hashPassword(password: string, params = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, KEY_BYTES, { ...params, maxmem: maxmem(params) });
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4] as string, "base64url");
  const expected = Buffer.from(parts[5] as string, "base64url");
  if (!N || !r || !p || expected.length === 0) return false;
  const key = await scrypt(password, salt, expected.length, {
    N,
    r,
    p,
    maxmem: maxmem({ N, r, p }),
  });
  return timingSafeEqual(key, expected);
}

/** Hash to compare against when the account does not exist, so timing does not tell. */
export async function dummyHash(params: ScryptParams): Promise<string> {
  return hashPassword(randomBytes(12).toString("base64url"), params);
}
