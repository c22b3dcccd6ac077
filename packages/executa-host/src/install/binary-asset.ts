// `binary_urls` (R76): platform key → URL string (nothing verified) or a BinaryAsset whose sha256
// and size are verified after download. Resolution order: exact key → same OS, any arch →
// wildcard (`*`, `any`, `universal`) → the only entry.
import { normalizePlatformKey } from "../launch/platform-key.js";
import { InstallError } from "./install-error.js";

export type ArchiveFormat = "tar.gz" | "zip" | "raw";
const FORMATS: Readonly<Record<string, ArchiveFormat>> = {
  "tar.gz": "tar.gz",
  tgz: "tar.gz",
  zip: "zip",
  raw: "raw",
};

export interface BinaryAsset {
  url: string;
  /** Lower-hex sha256 of the downloaded bytes. */
  sha256?: string;
  size?: number;
  /** Overrides the archive manifest's entrypoint for this platform. */
  entrypoint?: string;
  format?: ArchiveFormat;
}

export interface ResolvedAsset {
  /** The key of `binary_urls` that matched (as written there). */
  key: string;
  asset: BinaryAsset;
  format: ArchiveFormat;
}

const WILDCARDS = ["*", "any", "universal"];
const SHA256_RE = /^[0-9a-f]{64}$/;

/** `.tar.gz`/`.tgz` → tar+gzip, `.zip` → zip, anything else → a raw executable (R76). */
export function inferArchiveFormat(url: string): ArchiveFormat {
  let pathname = url;
  try {
    pathname = new URL(url).pathname;
  } catch {
    // A bare path (local archives) is read as-is.
  }
  const lower = pathname.toLowerCase();
  if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz")) return "tar.gz";
  if (lower.endsWith(".zip")) return "zip";
  return "raw";
}

/** One `binary_urls` value, checked: a URL string or a BinaryAsset object. */
export function parseBinaryAsset(key: string, value: unknown): BinaryAsset {
  const where = `binary_urls["${key}"]`;
  if (typeof value === "string") return { url: checkUrl(where, value) };
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InstallError(
      "INVALID_REQUEST",
      `${where} must be a URL string or {url, sha256?, size?, entrypoint?, format?}`,
    );
  }
  const v = value as Record<string, unknown>;
  const asset: BinaryAsset = { url: checkUrl(`${where}.url`, v.url) };
  if (v.sha256 !== undefined && v.sha256 !== null) {
    const sha = typeof v.sha256 === "string" ? v.sha256.toLowerCase() : "";
    if (!SHA256_RE.test(sha))
      throw new InstallError("INVALID_REQUEST", `${where}.sha256 must be 64 hex characters`);
    asset.sha256 = sha;
  }
  if (v.size !== undefined && v.size !== null) {
    if (typeof v.size !== "number" || !Number.isSafeInteger(v.size) || v.size < 0)
      throw new InstallError("INVALID_REQUEST", `${where}.size must be a byte count (integer ≥ 0)`);
    asset.size = v.size;
  }
  if (v.entrypoint !== undefined && v.entrypoint !== null) {
    if (typeof v.entrypoint !== "string" || v.entrypoint === "")
      throw new InstallError("INVALID_REQUEST", `${where}.entrypoint must be a relative path`);
    asset.entrypoint = v.entrypoint;
  }
  if (v.format !== undefined && v.format !== null) {
    const format = typeof v.format === "string" ? FORMATS[v.format.toLowerCase()] : undefined;
    if (format === undefined)
      throw new InstallError(
        "INVALID_REQUEST",
        `${where}.format must be one of tar.gz, tgz, zip, raw (got ${JSON.stringify(v.format)})`,
      );
    asset.format = format;
  }
  return asset;
}

function checkUrl(where: string, value: unknown): string {
  if (typeof value !== "string")
    throw new InstallError("INVALID_REQUEST", `${where} must be an http(s) URL`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InstallError("INVALID_REQUEST", `${where} is not a URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new InstallError(
      "INVALID_REQUEST",
      `${where} must be an http(s) URL (got ${url.protocol})`,
    );
  return value;
}

/** The asset for `platform` (a platform key such as `linux-x86_64`), in the R76 order. */
export function resolveBinaryAsset(binaryUrls: unknown, platform: string): ResolvedAsset {
  if (binaryUrls === null || typeof binaryUrls !== "object" || Array.isArray(binaryUrls)) {
    throw new InstallError(
      "INVALID_REQUEST",
      'binary_urls must be an object of platform key → URL or asset (e.g. {"linux-x86_64": "https://…"})',
    );
  }
  const entries = Object.entries(binaryUrls as Record<string, unknown>);
  const want = normalizePlatformKey(platform);
  const os = want.split("-")[0] ?? want;
  const norm = (k: string) => normalizePlatformKey(k);
  const match =
    entries.find(([k]) => norm(k) === want) ??
    entries.find(([k]) => norm(k).split("-")[0] === os && norm(k).includes("-")) ??
    entries.find(([k]) => WILDCARDS.includes(k.trim().toLowerCase())) ??
    (entries.length === 1 ? entries[0] : undefined);
  if (match === undefined) {
    const available = entries.map(([k]) => k).join(", ") || "none";
    throw new InstallError(
      "NO_ASSET",
      `No binary available for platform '${want}'. Available: ${available}`,
    );
  }
  const [key, value] = match;
  const asset = parseBinaryAsset(key, value);
  return { key, asset, format: asset.format ?? inferArchiveFormat(asset.url) };
}
