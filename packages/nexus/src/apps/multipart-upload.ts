// A bounded, streaming reader of one multipart/form-data upload (the published CLI's bundle file,
// logo and screenshot POSTs: text fields plus one file part). The file part goes to a private
// temporary file while its SHA-256 and size are counted, so a 50 MiB bundle file never sits in
// memory and a part over its cap is refused as soon as it passes it. Hono's parseBody would buffer
// the whole body first.
import { createHash } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NexusError } from "../core/errors.js";

export interface ReceivedFile {
  /** The temporary file holding the part's bytes; removed by `cleanup()`. */
  path: string;
  sha256: string;
  sizeBytes: number;
  /** The part's own Content-Type (the CLI types the Blob by extension). */
  contentType: string;
}

export interface MultipartUpload {
  fields: Record<string, string>;
  file: ReceivedFile | undefined;
  cleanup(): Promise<void>;
}

export interface MultipartLimits {
  /** The name of the one file part (`file`). */
  fileField: string;
  /** The file part's cap, decided when it starts from the fields read so far. */
  maxFileBytes: (fields: Readonly<Record<string, string>>) => number;
  maxFieldBytes?: number;
  maxParts?: number;
}

const MAX_HEADER_BYTES = 16 * 1024;
const MAX_PREAMBLE_BYTES = 64 * 1024;
const CRLF = Buffer.from("\r\n");

function bad(message: string): NexusError {
  return new NexusError("bad_request", `multipart body: ${message}`);
}

function boundaryOf(contentType: string | undefined): string {
  const m = /^multipart\/form-data\s*;(?:.*;)?\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(
    contentType ?? "",
  );
  const boundary = m?.[1] ?? m?.[2];
  if (boundary === undefined) {
    throw new NexusError(
      "unsupported_media_type",
      `send the file as multipart/form-data with a boundary (got ${JSON.stringify(contentType ?? "no content-type")})`,
    );
  }
  return boundary;
}

interface PartHeaders {
  name: string;
  filename: string | undefined;
  contentType: string;
}

function parseHeaders(raw: string): PartHeaders {
  let name: string | undefined;
  let filename: string | undefined;
  let contentType = "application/octet-stream";
  for (const line of raw.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "content-disposition") {
      name = /;\s*name="([^"]*)"/i.exec(value)?.[1];
      filename = /;\s*filename="([^"]*)"/i.exec(value)?.[1];
    } else if (key === "content-type") {
      contentType = value;
    }
  }
  if (name === undefined) throw bad("a part has no Content-Disposition name");
  return { name, filename, contentType };
}

/** A part's body being received: a field (in memory, capped) or the file (to disk). */
interface Sink {
  write(chunk: Buffer): Promise<void>;
  end(): Promise<void>;
}

async function writeTo(out: WriteStream, chunk: Buffer): Promise<void> {
  if (!out.write(chunk)) await new Promise<void>((r) => out.once("drain", () => r()));
}

/** Reads `body` as multipart/form-data within `limits`; the caller must call `cleanup()`. */
export async function receiveMultipart(
  contentType: string | undefined,
  body: ReadableStream<Uint8Array> | null,
  limits: MultipartLimits,
): Promise<MultipartUpload> {
  const boundary = boundaryOf(contentType);
  const maxField = limits.maxFieldBytes ?? 4096;
  const maxParts = limits.maxParts ?? 8;
  const fields: Record<string, string> = {};
  let file: ReceivedFile | undefined;
  let dir: string | undefined;
  const cleanup = async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  };
  if (body === null) throw bad("the body is empty");

  const opening = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.concat([CRLF, opening]);
  let buf = Buffer.alloc(0);
  type State = "preamble" | "after-delimiter" | "headers" | "body" | "done";
  // Widened on purpose: `step` moves it, which narrowing at the read sites cannot see.
  let state = "preamble" as State;
  let sink: Sink | undefined;
  let parts = 0;

  const openSink = async (h: PartHeaders): Promise<Sink> => {
    if (++parts > maxParts) throw bad(`more than ${maxParts} parts`);
    if (h.name === limits.fileField) {
      if (file !== undefined) throw bad(`more than one '${limits.fileField}' part`);
      const cap = limits.maxFileBytes(fields);
      dir ??= await mkdtemp(join(tmpdir(), "anna-upload-"));
      const path = join(dir, "file");
      const out = createWriteStream(path, { mode: 0o600 });
      const hash = createHash("sha256");
      let size = 0;
      return {
        async write(chunk) {
          size += chunk.byteLength;
          if (size > cap) {
            out.destroy();
            throw new NexusError(
              "payload_too_large",
              `the '${limits.fileField}' part is over its ${cap}-byte limit`,
            );
          }
          hash.update(chunk);
          await writeTo(out, chunk);
        },
        async end() {
          await new Promise<void>((resolve, reject) =>
            out.end((err?: Error | null) => (err ? reject(err) : resolve())),
          );
          file = { path, sha256: hash.digest("hex"), sizeBytes: size, contentType: h.contentType };
        },
      };
    }
    if (h.filename !== undefined) throw bad(`unexpected file part '${h.name}'`);
    const chunks: Buffer[] = [];
    let size = 0;
    return {
      write(chunk) {
        size += chunk.byteLength;
        if (size > maxField) throw bad(`field '${h.name}' is over ${maxField} bytes`);
        chunks.push(chunk);
        return Promise.resolve();
      },
      end() {
        fields[h.name] = Buffer.concat(chunks).toString("utf8");
        return Promise.resolve();
      },
    };
  };

  /** Moves through `buf` as far as it can; false when it needs more bytes. */
  const step = async (): Promise<boolean> => {
    switch (state) {
      case "preamble": {
        const at = buf.indexOf(opening);
        if (at < 0) {
          if (buf.length > MAX_PREAMBLE_BYTES) throw bad(`no boundary '${boundary}' found`);
          return false;
        }
        buf = buf.subarray(at + opening.length);
        state = "after-delimiter";
        return true;
      }
      case "after-delimiter": {
        if (buf.length < 2) return false;
        if (buf[0] === 0x2d && buf[1] === 0x2d) {
          state = "done";
          return false;
        }
        if (!buf.subarray(0, 2).equals(CRLF)) throw bad("a boundary is not followed by CRLF");
        buf = buf.subarray(2);
        state = "headers";
        return true;
      }
      case "headers": {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) {
          if (buf.length > MAX_HEADER_BYTES)
            throw bad(`part headers over ${MAX_HEADER_BYTES} bytes`);
          return false;
        }
        sink = await openSink(parseHeaders(buf.subarray(0, end).toString("utf8")));
        buf = buf.subarray(end + 4);
        state = "body";
        return true;
      }
      case "body": {
        const at = buf.indexOf(delimiter);
        if (at >= 0) {
          await sink?.write(buf.subarray(0, at));
          await sink?.end();
          sink = undefined;
          buf = buf.subarray(at + delimiter.length);
          state = "after-delimiter";
          return true;
        }
        // Keep a tail that could be the start of a delimiter split across chunks.
        const safe = buf.length - (delimiter.length - 1);
        if (safe > 0) {
          await sink?.write(buf.subarray(0, safe));
          buf = buf.subarray(safe);
        }
        return false;
      }
      case "done":
        return false;
    }
  };

  try {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buf = buf.length === 0 ? Buffer.from(value) : Buffer.concat([buf, value]);
        while (await step());
        if (state === "done") break;
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
    if (state !== "done") throw bad("the body ended before the closing boundary");
    return { fields, file, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
