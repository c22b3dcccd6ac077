// `--blob-store <url>` / BLOB_STORE → a BlobStore: nothing or `file:<dir>` for a folder
// (default `<data dir>/blobs`), `s3://bucket?…` for an S3-compatible bucket.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type BlobStore, BlobStoreConfigError } from "./blob-store.js";
import { FsBlobStore } from "./fs-blob-store.js";
import { parseS3Url, S3BlobStore } from "./s3-blob-store.js";

export interface OpenBlobStoreOptions {
  url: string | undefined;
  dataDir: string;
  origin: () => string;
  clock: () => number;
}

export async function openBlobStore(opts: OpenBlobStoreOptions): Promise<BlobStore> {
  const url = opts.url?.trim();
  if (url && /^s3:\/\//i.test(url)) return new S3BlobStore(parseS3Url(url, opts.clock));
  let root: string;
  if (!url) root = resolve(opts.dataDir, "blobs");
  else if (url.startsWith("file://")) root = fileURLToPath(url);
  else if (url.startsWith("file:")) root = resolve(url.slice("file:".length));
  else {
    throw new BlobStoreConfigError(
      `unsupported blob store '${url}' (use file:<dir> or s3://<bucket>?endpoint=http://host:port&region=…)`,
    );
  }
  const store = new FsBlobStore({ root, origin: opts.origin, clock: opts.clock });
  await store.init();
  return store;
}
