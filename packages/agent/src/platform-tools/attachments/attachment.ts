// The conversation attachments doc_read and sheet_read read. The turn runner supplies the
// lookup (it knows the conversation's attachments and the blob store); the tools only see
// `{name, mediaType, bytes}`, so they read what the platform stored, never an arbitrary URL.
import path from "node:path";
import type { ToolContext } from "../../turns/types.js";
import { PlatformToolError } from "../platform-tool.js";

export interface Attachment {
  name: string;
  /** As stored at upload (L9591: readers pick their parser by it); the extension is the fallback. */
  mediaType: string;
  bytes: Uint8Array;
}

/** The attachment `id` of the conversation in `ctx`, or `undefined` when it has none by that id. */
export type AttachmentLookup = (id: string, ctx: ToolContext) => Promise<Attachment | undefined>;

/** Attachments larger than this are not parsed at all. */
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;

export type AttachmentKind =
  | "text"
  | "markdown"
  | "html"
  | "csv"
  | "tsv"
  | "pdf"
  | "docx"
  | "pptx"
  | "xlsx"
  | "xls"
  | "unknown";

const BY_TYPE: Readonly<Record<string, AttachmentKind>> = {
  "text/plain": "text",
  "text/markdown": "markdown",
  "text/x-markdown": "markdown",
  "text/html": "html",
  "application/xhtml+xml": "html",
  "text/csv": "csv",
  "application/csv": "csv",
  "text/tab-separated-values": "tsv",
  "application/pdf": "pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/vnd.ms-excel": "xls",
};

const BY_EXTENSION: Readonly<Record<string, AttachmentKind>> = {
  ".txt": "text",
  ".text": "text",
  ".log": "text",
  ".md": "markdown",
  ".markdown": "markdown",
  ".html": "html",
  ".htm": "html",
  ".csv": "csv",
  ".tsv": "tsv",
  ".pdf": "pdf",
  ".docx": "docx",
  ".pptx": "pptx",
  ".xlsx": "xlsx",
  ".xls": "xls",
};

/** The parser an attachment needs: by media type, else (octet-stream, empty) by extension. */
export function attachmentKind(attachment: Pick<Attachment, "name" | "mediaType">): AttachmentKind {
  const type = attachment.mediaType.split(";")[0]?.trim().toLowerCase() ?? "";
  return BY_TYPE[type] ?? BY_EXTENSION[path.extname(attachment.name).toLowerCase()] ?? "unknown";
}

export async function loadAttachment(
  lookup: AttachmentLookup,
  id: string,
  ctx: ToolContext,
): Promise<Attachment> {
  const found = await lookup(id, ctx);
  if (found === undefined) {
    throw new PlatformToolError(
      "NOT_FOUND",
      `this conversation has no attachment ${JSON.stringify(id)}; use an id from its attachment list`,
    );
  }
  if (found.bytes.byteLength > ATTACHMENT_MAX_BYTES) {
    throw new PlatformToolError(
      "TOO_LARGE",
      `${found.name} is ${found.bytes.byteLength} bytes; attachments over ${ATTACHMENT_MAX_BYTES} bytes are not read`,
    );
  }
  return found;
}

/** UTF-8 (a BOM dropped), with U+FFFD for bytes that are not. */
export function attachmentText(attachment: Attachment): string {
  const text = new TextDecoder("utf-8").decode(attachment.bytes);
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}

/** The "not supported yet" answer for formats that need a parser this server does not ship. */
export function notSupportedYet(
  attachment: Attachment,
  kind: AttachmentKind,
  tool: string,
  reads: string,
): never {
  const what = kind === "unknown" ? attachment.mediaType || "an unknown type" : kind.toUpperCase();
  throw new PlatformToolError(
    "UNSUPPORTED_MEDIA_TYPE",
    `${tool} cannot read ${attachment.name} (${what}) yet: this server reads ${reads}; ask the user for one of those, or to paste the content`,
    { details: { kind } },
  );
}
