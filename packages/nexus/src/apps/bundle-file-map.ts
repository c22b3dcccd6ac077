// A UI bundle's declared file map (real-world-cli.md §3.1): relative POSIX paths normalised once
// and refused when they could escape the bundle or collide, each entry's sha256 / size / type
// checked against the limits, and the fingerprint the CLI compares (`sha256_manifest`).
import { createHash } from "node:crypto";
import { canonicalJson } from "@anna-ai/executa-host";
import type { AppLimits } from "../core/config.js";
import { NexusError } from "../core/errors.js";

export interface FileEntry {
  sha256: string;
  byte_size: number;
  content_type: string;
}

export type FileMap = Record<string, FileEntry>;

const SHA256_HEX = /^[0-9a-f]{64}$/;
const MAX_PATH_CHARS = 1024;

function refusePath(path: string, why: string): never {
  throw new NexusError(
    "validation_failed",
    `bundle path ${JSON.stringify(path)} ${why}; use a relative POSIX path inside the bundle folder (e.g. "assets/app.js")`,
    { details: { path } },
  );
}

/** `./a//b.js` → `a/b.js`; refuses absolute, `..`, backslash, NUL and control characters. */
export function normaliseBundlePath(path: string): string {
  if (path.length === 0 || path.length > MAX_PATH_CHARS) {
    refusePath(path, `must be 1 to ${MAX_PATH_CHARS} characters`);
  }
  if (path.includes("\\")) refusePath(path, "contains a backslash");
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point.
  if (/[\u0000-\u001f\u007f]/.test(path)) refusePath(path, "contains NUL or a control character");
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) refusePath(path, "is absolute");
  const segments = path.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) refusePath(path, "contains '..'");
  if (segments.length === 0 || path.endsWith("/")) refusePath(path, "names no file");
  return segments.join("/");
}

/** Checks the declared map; returns it keyed by normalised paths. */
export function checkFileMap(raw: Record<string, unknown>, limits: AppLimits): FileMap {
  const entries = Object.entries(raw);
  if (entries.length < 1 || entries.length > limits.bundleMaxFiles) {
    throw new NexusError(
      "validation_failed",
      `file_map: a bundle has 1 to ${limits.bundleMaxFiles} files, this one declares ${entries.length}`,
    );
  }
  const out: FileMap = {};
  let total = 0;
  for (const [rawPath, value] of entries) {
    const path = normaliseBundlePath(rawPath);
    if (Object.hasOwn(out, path)) {
      refusePath(rawPath, `is the same file as another entry once normalised (${path})`);
    }
    const e = value as Partial<FileEntry> | null;
    if (typeof e?.sha256 !== "string" || !SHA256_HEX.test(e.sha256.toLowerCase())) {
      throw new NexusError(
        "validation_failed",
        `file_map[${JSON.stringify(rawPath)}].sha256: must be 64 hex digits`,
      );
    }
    if (typeof e.byte_size !== "number" || !Number.isSafeInteger(e.byte_size) || e.byte_size < 0) {
      throw new NexusError(
        "validation_failed",
        `file_map[${JSON.stringify(rawPath)}].byte_size: must be a whole number of bytes`,
      );
    }
    if (e.byte_size > limits.bundleMaxFileBytes) {
      throw new NexusError(
        "payload_too_large",
        `bundle file ${path} is ${e.byte_size} bytes; each file may be at most ${limits.bundleMaxFileBytes}`,
        { details: { path } },
      );
    }
    const type = e.content_type ?? "application/octet-stream";
    if (
      typeof type !== "string" ||
      type.length > 255 ||
      !/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(type)
    ) {
      throw new NexusError(
        "validation_failed",
        `file_map[${JSON.stringify(rawPath)}].content_type: must be a media type like text/javascript`,
      );
    }
    total += e.byte_size;
    out[path] = { sha256: e.sha256.toLowerCase(), byte_size: e.byte_size, content_type: type };
  }
  if (total > limits.bundleMaxTotalBytes) {
    throw new NexusError(
      "payload_too_large",
      `the bundle is ${total} bytes; a bundle may be at most ${limits.bundleMaxTotalBytes}`,
    );
  }
  return out;
}

export function totalBytes(map: FileMap): number {
  return Object.values(map).reduce((n, e) => n + e.byte_size, 0);
}

/**
 * sha256 hex of the canonical file map, each entry exactly `{sha256, byte_size, content_type}`
 * (§3.1). The CLI sorts keys in JS default order (UTF-16 code units), which canonicalJson's
 * code-point order differs from only for astral characters, so the paths are ordered here.
 */
export function sha256Manifest(map: FileMap): string {
  const body = Object.keys(map)
    .sort()
    .map((path) => {
      const e = map[path] as FileEntry;
      const entry = { sha256: e.sha256, byte_size: e.byte_size, content_type: e.content_type };
      return `${JSON.stringify(path)}:${canonicalJson(entry)}`;
    })
    .join(",");
  return createHash("sha256").update(`{${body}}`, "utf8").digest("hex");
}

/** Where a file's bytes live: one object per distinct content, shared by every bundle. */
export const bundleBlobKey = (sha256: string) => `app-bundles/sha256/${sha256}`;
