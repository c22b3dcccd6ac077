// Presigned-URL signatures for the loopback blob server. Like an R2/S3 presigned URL, the
// signature covers everything the caller must not change: the method, the object key, the
// Content-Type a PUT must send, the expiry and the size cap. Changing any of them (or sending
// another Content-Type) fails verification, which the server answers 403 SignatureDoesNotMatch.
import { createHmac, timingSafeEqual } from "node:crypto";

/** What a presigned URL grants. Absent fields are signed as empty strings. */
export interface SignedGrant {
  method: "PUT" | "GET";
  key: string;
  expiresAtMs: number;
  /** PUT only: the exact Content-Type header the upload must carry. */
  contentType?: string;
  /** PUT only: the largest body accepted. */
  maxBytes?: number;
  /** GET only: the file name offered in Content-Disposition. */
  filename?: string;
}

function canonicalGrant(grant: SignedGrant): string {
  // Newline-separated like SigV4's canonical request; none of the fields can smuggle a newline
  // that changes the meaning because each one is JSON-encoded.
  return [
    grant.method,
    JSON.stringify(grant.key),
    String(grant.expiresAtMs),
    JSON.stringify(grant.contentType ?? ""),
    grant.maxBytes === undefined ? "" : String(grant.maxBytes),
    JSON.stringify(grant.filename ?? ""),
  ].join("\n");
}

export function signGrant(secret: Uint8Array, grant: SignedGrant): string {
  return createHmac("sha256", secret).update(canonicalGrant(grant)).digest("hex");
}

export function verifyGrant(secret: Uint8Array, grant: SignedGrant, signature: string): boolean {
  const expected = Buffer.from(signGrant(secret, grant), "hex");
  const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, "hex") : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** T28: `inline` only for image/*, audio/*, video/* and application/pdf; `attachment` otherwise. */
export function dispositionType(contentType: string): "inline" | "attachment" {
  const mime = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  // SVG can carry script: never render it inline from our origin (T28 denies it for uploads).
  if (mime === "image/svg+xml") return "attachment";
  if (/^(image|audio|video)\/[^/]+$/.test(mime) || mime === "application/pdf") return "inline";
  return "attachment";
}

/** `inline` / `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266 with an ASCII fallback). */
export function contentDisposition(contentType: string, filename?: string): string {
  const type = dispositionType(contentType);
  if (filename === undefined || filename === "") return type;
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
