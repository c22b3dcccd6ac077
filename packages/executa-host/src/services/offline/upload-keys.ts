// `r2_key`s of host uploads (T28, R61–R62): `exec-uploads/<env>/<user>/<tool>/<invoke>/<purpose>/
// <ts>_<rand>_<name>`. Keys are opaque to plugins but scoped to the invoke that minted them, and
// `confirm` refuses a key minted for another user, tool or invoke with -32203.
import { UPLOAD_ERRORS } from "@anna-ai/app-schema/errors";
import type { ServiceContext } from "../service-context.js";
import { catalogError } from "../service-error.js";
import { hashHex } from "./agent-ids.js";

export const UPLOAD_KEY_PREFIX = "exec-uploads";
/** `<env>` of keys minted by offline tools. */
export const UPLOAD_DEFAULT_ENV = "dev";
/** Longest file-name part of a key (`_safe_filename` keeps names short). */
export const UPLOAD_FILENAME_MAX_CHARS = 100;

type Owner = Pick<ServiceContext, "userId" | "toolId" | "invokeId">;

/** One path segment from an id that may hold any character. */
function segment(value: string): string {
  return encodeURIComponent(value) || "_";
}

/** `_safe_filename`: ASCII letters, digits, `.`, `_`, `-`; never empty, never hidden. */
export function safeFilename(filename: string): string {
  const base = filename.slice(Math.max(filename.lastIndexOf("/"), filename.lastIndexOf("\\")) + 1);
  const cleaned = base
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^[._]+/, "");
  return cleaned.slice(-UPLOAD_FILENAME_MAX_CHARS) || "file";
}

export function uploadKey(
  owner: Owner,
  env: string,
  purpose: string,
  nowMs: number,
  filename: string,
  seed: readonly (string | number)[],
): string {
  const rand = hashHex(["upload-key", owner.userId, owner.toolId, owner.invokeId, ...seed], 12);
  return [
    UPLOAD_KEY_PREFIX,
    segment(env),
    segment(owner.userId),
    segment(owner.toolId),
    segment(owner.invokeId),
    segment(purpose),
    `${nowMs}_${rand}_${safeFilename(filename)}`,
  ].join("/");
}

/** R62: the key must be this user's, name this tool and this invoke, in the key layout. */
export function checkKeyOwner(key: string, owner: Owner, env: string, method: string): void {
  const parts = key.split("/");
  const ok =
    parts.length === 7 &&
    parts[0] === UPLOAD_KEY_PREFIX &&
    parts[1] === segment(env) &&
    parts[2] === segment(owner.userId) &&
    parts[3] === segment(owner.toolId) &&
    parts[4] === segment(owner.invokeId);
  if (!ok) {
    throw catalogError(
      UPLOAD_ERRORS.INVALID_REQUEST,
      `${method}: r2_key was not issued to this user, executa and invoke; confirm a key returned by negotiate in the same invoke`,
      { reason: "KEY_NOT_OWNED" },
    );
  }
}

/** The file name a key was minted for (after `<ts>_<rand>_`). */
export function keyFilename(key: string): string {
  const last = key.slice(key.lastIndexOf("/") + 1);
  const match = /^\d+_[0-9a-f]+_(.+)$/.exec(last);
  return match?.[1] ?? last;
}
