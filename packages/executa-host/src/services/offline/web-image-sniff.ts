// The image MIME whitelist of `web.image_fetch` (R156), decided by magic bytes, never by the
// Content-Type header a server sends.
export interface SniffedImage {
  mimeType: "image/jpeg" | "image/png" | "image/gif" | "image/webp";
  extension: "jpg" | "png" | "gif" | "webp";
}

export const WEB_IMAGE_MIME_TYPES: readonly SniffedImage["mimeType"][] = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/gif",
];

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  return prefix.every((value, i) => bytes[at + i] === value);
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** The image type the bytes are, or undefined when they are none of jpeg/png/webp/gif. */
export function sniffImage(bytes: Uint8Array): SniffedImage | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { mimeType: "image/jpeg", extension: "jpg" };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { mimeType: "image/png", extension: "png" };
  }
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) {
    return { mimeType: "image/gif", extension: "gif" };
  }
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) {
    return { mimeType: "image/webp", extension: "webp" };
  }
  return undefined;
}
