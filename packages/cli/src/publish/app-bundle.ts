// The UI bundle as the published CLI sends it (real-world-cli.md §3.1, limits of 0.1.47): every
// regular file under the bundle folder, dotfiles included, sorted by localeCompare, each with
// its sha256, byte size and a content type guessed from the extension; 1–2000 files, each at
// most 50 MiB, at most 1 GiB in all, and `ui.bundle.entry` among them. The `sha256_manifest`
// fingerprint is the sha256 of the canonical file map. Symlinks are refused rather than
// followed: a link could publish a file from outside the project.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { canonicalJson } from "@anna-ai/executa-host/storage";
import { EXIT_INVALID_PROJECT, ExitError } from "../cli/exit-error.js";

export const BUNDLE_MAX_FILES = 2000;
export const BUNDLE_MAX_FILE_BYTES = 50 * 1024 * 1024;
export const BUNDLE_MAX_TOTAL_BYTES = 1024 * 1024 * 1024;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  js: "text/javascript",
  mjs: "text/javascript",
  json: "application/json",
  map: "application/json",
  webmanifest: "application/manifest+json",
  wasm: "application/wasm",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  svg: "image/svg+xml",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  woff: "font/woff",
  woff2: "font/woff2",
  txt: "text/plain",
  md: "text/markdown",
};

export interface BundleFile {
  /** POSIX, relative to the bundle folder. */
  relativePath: string;
  absolutePath: string;
  /** Generated content that replaces the file on disk (the tool-id map in a dry run). */
  content?: Buffer;
  sha256: string;
  byteSize: number;
  contentType: string;
}

export interface FileMapEntry {
  sha256: string;
  byte_size: number;
  content_type: string;
}

export interface LocalBundle {
  dir: string;
  /** In upload order (localeCompare). */
  files: BundleFile[];
  totalBytes: number;
  fileMap: Record<string, FileMapEntry>;
  /** `sha256_manifest`: what the server reports for the same files once finalized. */
  fingerprint: string;
}

export function contentTypeOf(relativePath: string): string {
  const ext = path.posix.extname(relativePath).slice(1).toLowerCase();
  return CONTENT_TYPES[ext] ?? "application/octet-stream";
}

const tooBig = (why: string) => new ExitError(EXIT_INVALID_PROJECT, `${why}; nothing was sent`);

/**
 * Reads and hashes the bundle, enforcing the limits before any request. `overlay` holds
 * generated files (path → bytes) that count as if they were on disk.
 */
export async function collectBundle(
  dir: string,
  entry: string | undefined,
  overlay: ReadonlyMap<string, Buffer> = new Map(),
): Promise<LocalBundle> {
  const found: { rel: string; abs: string; size: number; content?: Buffer }[] = [];
  let total = 0;
  const walk = async (abs: string, rel: string): Promise<void> => {
    for (const d of await readdir(abs, { withFileTypes: true })) {
      const childAbs = path.join(abs, d.name);
      const childRel = rel === "" ? d.name : `${rel}/${d.name}`;
      if (d.isSymbolicLink()) {
        throw tooBig(`bundle file ${childRel} is a symlink; copy the file into the bundle instead`);
      }
      if (d.isDirectory()) await walk(childAbs, childRel);
      else if (d.isFile() && !overlay.has(childRel)) {
        const { size } = await lstat(childAbs);
        if (size > BUNDLE_MAX_FILE_BYTES) {
          throw tooBig(
            `bundle file ${childRel} is ${mib(size)}; each file may be at most ${mib(BUNDLE_MAX_FILE_BYTES)}`,
          );
        }
        total += size;
        if (total > BUNDLE_MAX_TOTAL_BYTES) {
          throw tooBig(`the bundle in ${dir} is over ${mib(BUNDLE_MAX_TOTAL_BYTES)}`);
        }
        found.push({ rel: childRel, abs: childAbs, size });
        if (found.length > BUNDLE_MAX_FILES) {
          throw tooBig(`the bundle in ${dir} has more than ${BUNDLE_MAX_FILES} files`);
        }
      }
    }
  };
  await walk(dir, "");
  for (const [rel, content] of overlay) {
    total += content.length;
    found.push({ rel, abs: path.join(dir, ...rel.split("/")), size: content.length, content });
  }
  if (found.length === 0) throw tooBig(`the bundle folder ${dir} has no files`);
  found.sort((a, b) => a.rel.localeCompare(b.rel));
  if (entry !== undefined && !found.some((f) => f.rel === entry)) {
    throw tooBig(`ui.bundle.entry ${JSON.stringify(entry)} is not a file in ${dir}`);
  }
  const files: BundleFile[] = [];
  for (const f of found) {
    files.push({
      relativePath: f.rel,
      absolutePath: f.abs,
      ...(f.content === undefined ? {} : { content: f.content }),
      sha256:
        f.content === undefined
          ? await sha256File(f.abs)
          : createHash("sha256").update(f.content).digest("hex"),
      byteSize: f.size,
      contentType: contentTypeOf(f.rel),
    });
  }
  const fileMap: Record<string, FileMapEntry> = {};
  for (const f of files) {
    fileMap[f.relativePath] = {
      sha256: f.sha256,
      byte_size: f.byteSize,
      content_type: f.contentType,
    };
  }
  return { dir, files, totalBytes: total, fileMap, fingerprint: sha256Hex(canonicalJson(fileMap)) };
}

/** The A10/A17 init body. */
export function bundleInitBody(bundle: LocalBundle, manifest: Record<string, unknown>) {
  const b = (manifest.ui as { bundle?: Record<string, unknown> } | undefined)?.bundle ?? {};
  return {
    file_map: bundle.fileMap,
    total_size_bytes: bundle.totalBytes,
    file_count: bundle.files.length,
    bundle_format: typeof b.format === "string" && b.format !== "" ? b.format : "static-spa",
    entry_path: b.entry,
    external_origins: Array.isArray(b.external_origins) ? b.external_origins : [],
  };
}

export const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MiB`;
