// Property tests of the framing: however a stream of frames is cut into chunks, the decoder
// yields the same messages; garbage lines in between are dropped without disturbing them.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineDecoder } from "../src/line-decoder.js";
import type { DecodedLine } from "../src/line-decoder.js";

const encoder = new TextEncoder();

/** JSON-RPC-ish messages with awkward content: unicode, escapes, nesting, embedded "\n" text. */
const messageArb = fc
  .record({
    jsonrpc: fc.constant("2.0"),
    id: fc.oneof(
      fc.integer(),
      fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 24, maxLength: 32 }),
      fc.string(),
    ),
    method: fc.string({ unit: "grapheme", maxLength: 20 }),
    params: fc.jsonValue({ maxDepth: 3 }),
  })
  // What JSON can carry (e.g. -0 becomes 0): the decoder is compared against the wire, not JS.
  .map((m) => JSON.parse(JSON.stringify(m)) as unknown);

/** Splits `bytes` at arbitrary sorted positions. */
function chunked(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let last = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(last, p));
    last = p;
  }
  chunks.push(bytes.subarray(last));
  return chunks;
}

function decodeAll(decoder: LineDecoder, chunks: Uint8Array[]): DecodedLine[] {
  const out: DecodedLine[] = [];
  for (const chunk of chunks) out.push(...decoder.push(chunk));
  out.push(...decoder.end());
  return out;
}

function parsedLines(items: DecodedLine[]): unknown[] {
  const out: unknown[] = [];
  for (const item of items) {
    if (item.kind !== "line") continue;
    try {
      out.push(JSON.parse(item.text));
    } catch {
      // garbage: dropped by the transport
    }
  }
  return out;
}

describe("LineDecoder properties", () => {
  it("decodes any chunking of serialised messages to the same messages", () => {
    fc.assert(
      fc.property(
        fc.array(messageArb, { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.boolean(),
        (messages, cuts, crlf) => {
          const text = messages.map((m) => JSON.stringify(m) + (crlf ? "\r\n" : "\n")).join("");
          const bytes = encoder.encode(text);
          const out = decodeAll(new LineDecoder(), chunked(bytes, cuts));
          expect(out.every((item) => item.kind === "line")).toBe(true);
          expect(
            out.map((item) => (item.kind === "line" ? JSON.parse(item.text) : undefined)),
          ).toEqual(messages);
          const wireBytes = out.reduce(
            (sum, item) => sum + (item.kind === "line" ? item.bytes : 0),
            0,
          );
          expect(wireBytes).toBe(bytes.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("decodes the same messages when the producer reuses one buffer for every chunk", () => {
    fc.assert(
      fc.property(
        fc.array(messageArb, { maxLength: 15 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.integer({ min: 16, max: 4096 }),
        (messages, cuts, cap) => {
          const lines = messages.map((m) => JSON.stringify(m));
          const bytes = encoder.encode(lines.map((l) => `${l}\n`).join(""));
          const decoder = new LineDecoder({ maxLineBytes: cap, reusedChunks: true });
          const shared = new Uint8Array(bytes.length);
          const out: DecodedLine[] = [];
          for (const chunk of chunked(bytes, cuts)) {
            shared.set(chunk);
            out.push(...decoder.push(shared.subarray(0, chunk.length)));
            shared.fill(0x7a);
          }
          out.push(...decoder.end());
          const expected = lines.map((line, i) =>
            encoder.encode(line).length > cap ? "dropped" : (messages[i] as unknown),
          );
          expect(
            out.map((item) =>
              item.kind === "line" ? (JSON.parse(item.text) as unknown) : "dropped",
            ),
          ).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("drops interleaved garbage lines without affecting the valid ones", () => {
    const garbageArb = fc
      .string({ unit: "binary", minLength: 1, maxLength: 60 })
      .map((s) => s.replace(/[\r\n]/g, " "))
      .filter((s) => {
        try {
          JSON.parse(s);
          return false;
        } catch {
          return true;
        }
      });
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            messageArb.map((m) => ({ m })),
            garbageArb.map((g) => ({ g })),
          ),
          { maxLength: 25 },
        ),
        fc.array(fc.nat(), { maxLength: 30 }),
        (items, cuts) => {
          const text = items
            .map((item) => ("m" in item ? JSON.stringify(item.m) : item.g) + "\n")
            .join("");
          const out = decodeAll(new LineDecoder(), chunked(encoder.encode(text), cuts));
          const expected = items.flatMap((item) => ("m" in item ? [item.m] : []));
          expect(parsedLines(out)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("drops oversized lines, delivers the rest, and never buffers more than cap + chunk", () => {
    const cap = 256;
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            messageArb.map((m) => ({ m })),
            fc.integer({ min: cap + 1, max: 4 * cap }).map((n) => ({ big: n })),
          ),
          {
            maxLength: 15,
          },
        ),
        fc.array(fc.nat(), { maxLength: 40 }),
        (items, cuts) => {
          const lines = items.map((item) =>
            "m" in item ? JSON.stringify(item.m) : `{"id":1,"pad":"${"p".repeat(item.big)}"}`,
          );
          const bytes = encoder.encode(lines.map((l) => `${l}\n`).join(""));
          const decoder = new LineDecoder({ maxLineBytes: cap });
          const chunks = chunked(bytes, cuts);
          const out: DecodedLine[] = [];
          for (const chunk of chunks) {
            out.push(...decoder.push(chunk));
            expect(decoder.bufferedBytes).toBeLessThanOrEqual(cap + 1 + chunk.length + 2 * 4096);
          }
          out.push(...decoder.end());
          const expected = lines.map((line, i) => {
            const size = encoder.encode(line).length;
            return size > cap ? { dropped: size + 1 } : { m: (items[i] as { m: unknown }).m };
          });
          const actual = out.map((item) =>
            item.kind === "dropped"
              ? { dropped: item.dropped.reason === "oversized" ? item.dropped.bytes : -1 }
              : { m: JSON.parse(item.text) as unknown },
          );
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
