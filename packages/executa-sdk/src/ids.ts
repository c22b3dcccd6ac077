import { randomUUID } from "node:crypto";

/**
 * Reverse-request ids are random 32-hex strings, as the real SDKs send them: hosts (and the Go
 * SDK's reply matcher) expect strings, and randomness keeps ids unique across restarts.
 * `randomUUID` draws from a cached entropy pool, so this is cheaper than `randomBytes(16)`.
 */
export function randomHexId(): string {
  return randomUUID().replaceAll("-", "");
}
