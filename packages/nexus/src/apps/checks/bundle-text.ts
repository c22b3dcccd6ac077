// Reading a bundle's files for the pre-review checks: bounded reads from the blob store, which
// files hold text worth scanning, and where in the text a match is (line numbers, so a finding
// can point at a place without quoting what is there).
import type { Selectable } from "kysely";
import type { BlobStore } from "../../blobs/blob-store.js";
import type { AppBundleFilesTable } from "../../db/schema-apps.js";
import type { PreReviewInput } from "../pre-review.js";

export type BundleFile = Selectable<AppBundleFilesTable>;

/** Larger files are reported as not scanned instead of read. */
export const MAX_SCANNED_FILE_BYTES = 8 * 1024 * 1024;

const TEXT_TYPES =
  /^(?:text\/|application\/(?:javascript|x-javascript|ecmascript|json|manifest\+json|xml|xhtml\+xml)|image\/svg\+xml)/i;
const TEXT_EXTENSIONS = /\.(?:html?|m?js|cjs|css|json|map|svg|txt|md|xml|webmanifest)$/i;

export const isHtml = (f: BundleFile): boolean =>
  /\.html?$/i.test(f.relative_path) || /^text\/html\b/i.test(f.content_type);
export const isScript = (f: BundleFile): boolean =>
  /\.(?:m?js|cjs)$/i.test(f.relative_path) || /javascript|ecmascript/i.test(f.content_type);
export const isText = (f: BundleFile): boolean =>
  TEXT_TYPES.test(f.content_type) || TEXT_EXTENSIONS.test(f.relative_path);

/** The file's bytes, or `undefined` when it is over `maxBytes` (nothing past the cap is read). */
export async function readBundleFile(
  blobs: BlobStore,
  file: BundleFile,
  maxBytes = MAX_SCANNED_FILE_BYTES,
): Promise<Buffer | undefined> {
  if (file.byte_size > maxBytes) return undefined;
  const object = await blobs.read(file.blob_key);
  if (object === undefined) throw new Error(`${file.relative_path} is missing from the blob store`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of object.stream as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > maxBytes) {
      (object.stream as { destroy?: () => void }).destroy?.();
      return undefined;
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/**
 * Each text file of the bundle with its contents (UTF-8), in path order; the ones too large to
 * scan are passed to `skipped`. A check without a bundle or blob store sees no files.
 */
export async function* textFiles(
  input: PreReviewInput,
  filter: (f: BundleFile) => boolean,
  skipped: (f: BundleFile) => void,
): AsyncGenerator<{ file: BundleFile; text: string }> {
  if (input.bundle === null || input.blobs === undefined) return;
  const files = [...input.bundle.files].sort((a, b) =>
    a.relative_path.localeCompare(b.relative_path),
  );
  for (const file of files) {
    if (!filter(file)) continue;
    const bytes = await readBundleFile(input.blobs, file);
    if (bytes === undefined) skipped(file);
    else yield { file, text: bytes.toString("utf8") };
  }
}

/** 1-based line of `index` in `text`. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** The parsed manifest of the candidate version (validated when the version was created). */
export function manifestOf(input: PreReviewInput): Record<string, unknown> {
  try {
    const parsed = JSON.parse(input.version.manifest) as unknown;
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
