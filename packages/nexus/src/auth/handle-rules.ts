// Developer handles (spec R1/R4, ruling V1): 2–39 characters of GitHub-username grammar, some
// words reserved, and a name its owner renamed away from frozen for 90 days so nobody else can
// take it over (apps publish as `@handle/slug`, so a reused handle would impersonate).
import { NexusError } from "../core/errors.js";

export const HANDLE_RE = /^(?=.{2,39}$)[a-z0-9]+(-[a-z0-9]+)*$/;
export const HANDLE_FREEZE_MS = 90 * 86_400_000;
export const RESERVED_HANDLES: ReadonlySet<string> = new Set([
  "anna",
  "official",
  "admin",
  "administrator",
  "root",
  "support",
  "system",
  "nexus",
  "api",
  "www",
  "help",
  "security",
  "staff",
]);

/**
 * The stored form of `input` (trimmed, lower case), or a NexusError `validation_failed` whose
 * `reason` is `HANDLE_INVALID` or `HANDLE_RESERVED`.
 */
export function normaliseHandle(input: string): string {
  const h = input.trim().toLowerCase();
  if (!HANDLE_RE.test(h)) {
    throw new NexusError(
      "validation_failed",
      "a handle is 2–39 characters: lowercase letters, digits and single hyphens",
      { details: { reason: "HANDLE_INVALID" } },
    );
  }
  if (RESERVED_HANDLES.has(h)) {
    throw new NexusError("validation_failed", `'${h}' is reserved`, {
      details: { reason: "HANDLE_RESERVED" },
    });
  }
  return h;
}

export function handleFrozenError(handle: string, frozenUntil: number): NexusError {
  return new NexusError(
    "handle_taken",
    `'${handle}' was released recently and cannot be taken until ${new Date(frozenUntil).toISOString().slice(0, 10)}`,
    { details: { reason: "HANDLE_FROZEN", frozen_until: new Date(frozenUntil).toISOString() } },
  );
}
