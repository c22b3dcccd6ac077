// The `content_hash` an app version or working draft is sent with (real-world-cli.md §3.2), so
// the server answers a re-push of the same content as unchanged. Byte for byte what the
// published CLI computes: the canonical `{version, manifest}`, then, with a bundle, one
// `"\n" + path + "\0" + sha256(file)` per file in JS default sort order (not the upload order).
import { createHash } from "node:crypto";
import { canonicalJson } from "@anna-ai/executa-host/storage";
import type { LocalBundle } from "./app-bundle.js";

export function manifestHash(version: string, manifest: unknown): string {
  return createHash("sha256").update(canonicalJson({ version, manifest }), "utf8").digest("hex");
}

export function bundleHash(version: string, manifest: unknown, bundle: LocalBundle): string {
  const hash = createHash("sha256").update(canonicalJson({ version, manifest }), "utf8");
  const byPath = new Map(bundle.files.map((f) => [f.relativePath, f.sha256]));
  for (const rel of [...byPath.keys()].sort()) {
    hash.update(`\n${rel}\0${byPath.get(rel)!}`, "utf8");
  }
  return hash.digest("hex");
}
