// The streaming multipart reader on its own: boundaries split across any chunking, fields before
// or after the file, caps refused as they are passed, malformed bodies named, temp files removed.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { receiveMultipart } from "../src/apps/multipart-upload.js";
import { sha256 } from "./helpers/apps-http.js";

const BOUNDARY = "----anna-test-boundary";
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

function body(
  parts: { name: string; filename?: string; type?: string; data: string | Buffer }[],
): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename === undefined ? "" : `; filename="${p.filename}"`}`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n`));
    if (p.type) chunks.push(Buffer.from(`Content-Type: ${p.type}\r\n`));
    chunks.push(Buffer.from("\r\n"), Buffer.from(p.data), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** The bytes as a stream of `size`-byte chunks. */
function stream(bytes: Buffer, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(at, at + size)));
      at += size;
    },
  });
}

// Bytes that look like a delimiter's start inside the file must survive.
const DATA = Buffer.concat([
  Buffer.from("a\r\n--"),
  Buffer.from(`--${BOUNDARY.slice(0, 10)}`),
  Buffer.alloc(300, 0x61),
  Buffer.from("\r\n"),
]);

describe("receiveMultipart", () => {
  for (const size of [1, 7, 64, 100_000]) {
    it(`reads a field and a file in ${size}-byte chunks`, async () => {
      const raw = body([
        { name: "relative_path", data: "assets/app.js" },
        { name: "file", filename: "blob", type: "text/javascript", data: DATA },
      ]);
      const up = await receiveMultipart(TYPE, stream(raw, size), {
        fileField: "file",
        maxFileBytes: () => 10_000,
      });
      try {
        expect(up.fields).toEqual({ relative_path: "assets/app.js" });
        expect(up.file).toMatchObject({
          sha256: sha256(DATA),
          sizeBytes: DATA.length,
          contentType: "text/javascript",
        });
        expect((await readFile(up.file?.path as string)).equals(DATA)).toBe(true);
      } finally {
        await up.cleanup();
      }
      expect(existsSync(up.file?.path as string)).toBe(false);
    });
  }

  it("reads the file before the field, with the cap chosen from the fields seen so far", async () => {
    const seen: Record<string, string>[] = [];
    const raw = body([
      { name: "file", filename: "blob", data: "12345" },
      { name: "relative_path", data: "a.js" },
    ]);
    const up = await receiveMultipart(TYPE, stream(raw, 3), {
      fileField: "file",
      maxFileBytes: (f) => (seen.push({ ...f }), 5),
    });
    await up.cleanup();
    expect(seen).toEqual([{}]);
    expect(up.fields.relative_path).toBe("a.js");
    expect(up.file?.sizeBytes).toBe(5);
  });

  it("refuses a file past its cap as it streams", async () => {
    const raw = body([{ name: "file", filename: "blob", data: Buffer.alloc(5000, 1) }]);
    await expect(
      receiveMultipart(TYPE, stream(raw, 512), { fileField: "file", maxFileBytes: () => 1000 }),
    ).rejects.toMatchObject({ code: "payload_too_large" });
  });

  it("names what is wrong with a malformed body", async () => {
    const opts = { fileField: "file", maxFileBytes: () => 10 };
    await expect(
      receiveMultipart("application/json", stream(Buffer.from("{}"), 10), opts),
    ).rejects.toMatchObject({
      code: "unsupported_media_type",
    });
    const truncated = body([{ name: "relative_path", data: "a" }]).subarray(0, 40);
    await expect(receiveMultipart(TYPE, stream(truncated, 10), opts)).rejects.toThrow(
      /ended before the closing boundary/,
    );
    const two = body([
      { name: "file", filename: "blob", data: "1" },
      { name: "file", filename: "blob", data: "2" },
    ]);
    await expect(receiveMultipart(TYPE, stream(two, 10), opts)).rejects.toThrow(
      /more than one 'file'/,
    );
    const bigField = body([{ name: "relative_path", data: "x".repeat(5000) }]);
    await expect(receiveMultipart(TYPE, stream(bigField, 100), opts)).rejects.toThrow(
      /over 4096 bytes/,
    );
  });
});
