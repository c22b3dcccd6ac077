import { describe, expect, it } from "vitest";
import { HINT_WINDOW_BYTES, LineDecoder } from "../src/line-decoder.js";
import type { DecodedLine } from "../src/line-decoder.js";

const encoder = new TextEncoder();
const bytes = (text: string): Uint8Array => encoder.encode(text);

function texts(items: DecodedLine[]): string[] {
  return items.flatMap((item) => (item.kind === "line" ? [item.text] : []));
}

function feedAll(decoder: LineDecoder, chunks: Uint8Array[]): DecodedLine[] {
  const out: DecodedLine[] = [];
  for (const chunk of chunks) out.push(...decoder.push(chunk));
  out.push(...decoder.end());
  return out;
}

describe("LineDecoder", () => {
  it("splits LF-terminated lines and counts wire bytes with the terminator", () => {
    const out = new LineDecoder().push(bytes('{"a":1}\n{"b":2}\n'));
    expect(out).toEqual([
      { kind: "line", text: '{"a":1}', bytes: 8 },
      { kind: "line", text: '{"b":2}', bytes: 8 },
    ]);
  });

  it("tolerates CRLF terminators", () => {
    const out = new LineDecoder().push(bytes('{"a":1}\r\n{"b":2}\r\n'));
    expect(out).toEqual([
      { kind: "line", text: '{"a":1}', bytes: 9 },
      { kind: "line", text: '{"b":2}', bytes: 9 },
    ]);
  });

  it("skips blank and whitespace-only lines", () => {
    const out = new LineDecoder().push(bytes('\n\r\n   \n\t \r\n{"a":1}\n\n'));
    expect(texts(out)).toEqual(['{"a":1}']);
    expect(out).toHaveLength(1);
  });

  it("keeps a line that starts with whitespace but has content", () => {
    expect(texts(new LineDecoder().push(bytes('  {"a":1}\n')))).toEqual(['  {"a":1}']);
  });

  it("holds a partial line until its newline arrives", () => {
    const decoder = new LineDecoder();
    expect(decoder.push(bytes('{"a":'))).toEqual([]);
    expect(decoder.bufferedBytes).toBe(5);
    expect(texts(decoder.push(bytes('1}\n{"b"')))).toEqual(['{"a":1}']);
    expect(decoder.bufferedBytes).toBe(4);
  });

  it("delivers an unterminated last line at end of stream", () => {
    const decoder = new LineDecoder();
    decoder.push(bytes('{"a":1}\n{"b":2}'));
    expect(decoder.end()).toEqual([{ kind: "line", text: '{"b":2}', bytes: 7 }]);
    expect(decoder.end()).toEqual([]);
  });

  it("decodes the same lines whatever byte position a chunk boundary falls on, inside multi-byte UTF-8 too", () => {
    const text = '{"emoji":"😀 ünïcödé ✓"}\r\n{"cjk":"插件"}\n\n{"x":"€"}\n';
    const whole = bytes(text);
    const expected = ['{"emoji":"😀 ünïcödé ✓"}', '{"cjk":"插件"}', '{"x":"€"}'];
    for (let cut = 0; cut <= whole.length; cut++) {
      const out = feedAll(new LineDecoder(), [whole.slice(0, cut), whole.slice(cut)]);
      expect(texts(out), `cut at ${cut}`).toEqual(expected);
    }
    for (let a = 1; a < whole.length; a += 3) {
      for (let b = a + 1; b < whole.length; b += 5) {
        const out = feedAll(new LineDecoder(), [
          whole.slice(0, a),
          whole.slice(a, b),
          whole.slice(b),
        ]);
        expect(texts(out), `cuts at ${a},${b}`).toEqual(expected);
      }
    }
  });

  it("decodes byte-at-a-time input", () => {
    const whole = bytes('{"k":"välue"}\n{"n":2}\n');
    const chunks = Array.from(whole, (b) => Uint8Array.of(b));
    expect(texts(feedAll(new LineDecoder(), chunks))).toEqual(['{"k":"välue"}', '{"n":2}']);
  });

  it("accepts a line of exactly the cap, CRLF included, and drops one byte more", () => {
    const decoder = new LineDecoder({ maxLineBytes: 10 });
    const ok = "x".repeat(10);
    expect(texts(decoder.push(bytes(`${ok.slice(0, 4)}`)))).toEqual([]);
    expect(texts(decoder.push(bytes(`${ok.slice(4)}\r\n`)))).toEqual([ok]);
    const out = decoder.push(bytes(`${"y".repeat(11)}\n`));
    expect(out).toEqual([{ kind: "dropped", dropped: { reason: "oversized", bytes: 12 } }]);
  });

  it("drops an oversized line as it streams, keeps memory bounded and delivers the next line", () => {
    const cap = 1024 * 1024;
    const chunkBytes = 64 * 1024;
    const decoder = new LineDecoder({ maxLineBytes: cap });
    const head = bytes('{"jsonrpc":"2.0","id":"a1b2c3d4e5f6a7b8c9d0e1f2","result":{"data":"');
    const filler = new Uint8Array(chunkBytes).fill(0x61);
    const out: DecodedLine[] = [];
    let maxBuffered = 0;
    out.push(...decoder.push(head));
    for (let sent = 0; sent < 8 * cap; sent += chunkBytes) {
      out.push(...decoder.push(filler));
      maxBuffered = Math.max(maxBuffered, decoder.bufferedBytes);
    }
    out.push(...decoder.push(bytes('"}}\n{"jsonrpc":"2.0","id":7,"result":true}\n')));
    expect(maxBuffered).toBeLessThanOrEqual(cap + chunkBytes);
    expect(decoder.bufferedBytes).toBe(0);
    expect(out).toEqual([
      {
        kind: "dropped",
        dropped: {
          reason: "oversized",
          bytes: head.length + 8 * cap + 4,
          idHint: "a1b2c3d4e5f6a7b8c9d0e1f2",
        },
      },
      { kind: "line", text: '{"jsonrpc":"2.0","id":7,"result":true}', bytes: 39 },
    ]);
  });

  it("drops an oversized line that arrives inside a single chunk", () => {
    const decoder = new LineDecoder({ maxLineBytes: 100 });
    const line = `{"jsonrpc":"2.0","method":"storage/set","id":12,"params":{"v":"${"z".repeat(200)}"}}`;
    const out = decoder.push(bytes(`${line}\n{"ok":1}\n`));
    expect(out).toEqual([
      {
        kind: "dropped",
        dropped: {
          reason: "oversized",
          bytes: line.length + 1,
          idHint: 12,
          methodHint: "storage/set",
        },
      },
      { kind: "line", text: '{"ok":1}', bytes: 9 },
    ]);
  });

  it("recovers an id written after a huge result from the tail of the line", () => {
    const decoder = new LineDecoder({ maxLineBytes: 1000 });
    const realLine = `{"jsonrpc":"2.0","result":{"blob":"${"q".repeat(5000)}"},"id":"0123456789abcdef0123456789abcdef"}`;
    const out = feedAll(decoder, [
      bytes(realLine.slice(0, 3000)),
      bytes(`${realLine.slice(3000)}\n`),
    ]);
    expect(out).toEqual([
      {
        kind: "dropped",
        dropped: {
          reason: "oversized",
          bytes: realLine.length + 1,
          idHint: "0123456789abcdef0123456789abcdef",
        },
      },
    ]);
  });

  it("ignores ids nested inside params when recovering hints", () => {
    const decoder = new LineDecoder({ maxLineBytes: 50 });
    const line = `{"jsonrpc":"2.0","params":{"id":"inner","method":"nope"},"method":"files/put","id":99,"x":"${"w".repeat(HINT_WINDOW_BYTES * 2)}"}`;
    const [item] = decoder.push(bytes(`${line}\n`));
    expect(item).toEqual({
      kind: "dropped",
      dropped: { reason: "oversized", bytes: line.length + 1, idHint: 99, methodHint: "files/put" },
    });
  });

  it("reports an oversized line without hints when none can be found", () => {
    const decoder = new LineDecoder({ maxLineBytes: 8 });
    decoder.push(bytes("garbage garbage garbage"));
    expect(decoder.end()).toEqual([
      { kind: "dropped", dropped: { reason: "oversized", bytes: 23 } },
    ]);
  });
});
