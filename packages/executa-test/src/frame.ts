// One stdout line of a plugin, classified by shape the way the host does (T1): `method` + `id` is
// a request, `method` alone a notification, anything else a response. Large frames arrive as a
// `__file_transport` pointer (T2, H3) and are resolved here, so tests see the real message and
// can still assert how it travelled.

import { lstatSync, readFileSync, realpathSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname } from "node:path";

export type JsonObject = Record<string, unknown>;
export type RpcId = string | number;

export interface Frame {
  /** The message, after resolving `__file_transport`. */
  message: JsonObject;
  /** The line exactly as it appeared on stdout (the pointer line for file transport). */
  line: string;
  /** The pointer object when the frame travelled through file transport. */
  pointer?: JsonObject;
  /** The file the frame was read from (already deleted). */
  fileTransport?: string;
}

export function isRequest(frame: Frame): boolean {
  return typeof frame.message.method === "string" && "id" in frame.message;
}

export function isNotification(frame: Frame): boolean {
  return typeof frame.message.method === "string" && !("id" in frame.message);
}

export function isResponse(frame: Frame): boolean {
  return typeof frame.message.method !== "string";
}

/** JSON-RPC ids match only with the same type: 7 and "7" are different requests. */
export function sameId(a: unknown, b: unknown): boolean {
  return typeof a === typeof b && a === b;
}

/**
 * Read and delete a file-transport frame. Only a regular file directly in the OS temp dir with the
 * `executa-` prefix the SDKs use is touched (H3): a pointer elsewhere is a plugin bug the test
 * must see, not a file this client deletes.
 */
export function readFileTransport(path: string): JsonObject {
  const temp = realpathSync(tmpdir());
  if (realpathSync(dirname(path)) !== temp || !basename(path).startsWith("executa-")) {
    throw new Error(
      `file transport pointer ${path} is outside ${temp}; plugins must write executa-* files in the OS temp dir`,
    );
  }
  if (!lstatSync(path).isFile()) {
    throw new Error(`file transport pointer ${path} is not a regular file`);
  }
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new Error(`file transport file ${path} does not hold a JSON object`);
    }
    return parsed as JsonObject;
  } finally {
    unlinkSync(path);
  }
}
