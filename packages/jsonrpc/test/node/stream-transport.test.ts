import { PassThrough, Writable } from "node:stream";
import { describe, expect, it, onTestFinished } from "vitest";
import { StreamTransport } from "../../src/node/stream-transport.js";
import type { DroppedLine, FrameMeta } from "../../src/types.js";
import { memoryLogger, waitFor, within } from "../helpers.js";

function harness(maxLineBytes?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const logger = memoryLogger();
  const transport = new StreamTransport(input, output, { maxLineBytes, logger, name: "p" });
  const messages: [Record<string, unknown>, FrameMeta][] = [];
  const dropped: DroppedLine[] = [];
  const closes: (Error | undefined)[] = [];
  transport.start({
    onMessage: (m, meta) => messages.push([m, meta]),
    onDropped: (d) => dropped.push(d),
    onClose: (reason) => closes.push(reason),
  });
  onTestFinished(() => transport.close());
  return { input, output, transport, messages, dropped, closes, logger };
}

describe("StreamTransport", () => {
  it("parses CRLF and LF frames, skips blanks, and reports non-JSON and non-object lines (H1)", async () => {
    const { input, messages, dropped, logger } = harness();
    input.write(
      '{"jsonrpc":"2.0","id":1,"result":"a"}\r\n\r\nhello world\n[1,2]\n{"jsonrpc":"2.0","method":"n"}\n',
    );
    await waitFor(() => messages.length === 2);
    expect(messages.map(([m]) => m)).toEqual([
      { jsonrpc: "2.0", id: 1, result: "a" },
      { jsonrpc: "2.0", method: "n" },
    ]);
    expect(messages[0]?.[1]).toEqual({ bytes: 39 });
    expect(dropped).toEqual([
      { reason: "not_json", preview: "hello world", bytes: 12 },
      { reason: "not_object", preview: "[1,2]", bytes: 6 },
    ]);
    expect(logger.records.filter((r) => r.level === "warn")).toHaveLength(2);
    expect(logger.records[0]).toMatchObject({
      message: "non-JSON line skipped",
      fields: { peer: "p", preview: "hello world" },
    });
  });

  it("truncates the preview of a long garbage line to 200 characters", async () => {
    const { input, dropped } = harness();
    input.write(`${"z".repeat(1000)}\n`);
    await waitFor(() => dropped.length === 1);
    expect(dropped[0]).toEqual({ reason: "not_json", preview: "z".repeat(200), bytes: 1001 });
  });

  it("writes one line per message and returns its byte count", () => {
    const { output, transport } = harness();
    const bytes = transport.send({ jsonrpc: "2.0", id: 1, method: "describe", params: { s: "ü" } });
    const written = output.read() as Buffer;
    expect(written.toString()).toBe(
      '{"jsonrpc":"2.0","id":1,"method":"describe","params":{"s":"ü"}}\n',
    );
    expect(bytes).toBe(written.length);
  });

  it("sends the first frame of a tick at once and batches the rest of the tick into one writev", async () => {
    const calls: string[][] = [];
    const output = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        calls.push([chunk.toString()]);
        callback();
      },
      writev(chunks, callback) {
        calls.push(chunks.map(({ chunk }) => (chunk as Buffer).toString()));
        callback();
      },
    });
    const transport = new StreamTransport(new PassThrough(), output);
    transport.start({ onMessage: () => undefined, onClose: () => undefined });
    onTestFinished(() => transport.close());
    for (let id = 1; id <= 4; id++) transport.send({ jsonrpc: "2.0", id, result: id });
    expect(calls).toEqual([['{"jsonrpc":"2.0","id":1,"result":1}\n']]);
    await new Promise<void>((resolve) => process.nextTick(resolve));
    expect(calls).toEqual([
      ['{"jsonrpc":"2.0","id":1,"result":1}\n'],
      [2, 3, 4].map((id) => `{"jsonrpc":"2.0","id":${id},"result":${id}}\n`),
    ]);
    transport.send({ jsonrpc: "2.0", id: 5, result: 5 });
    expect(calls).toHaveLength(3);
  });

  it("lets a long burst leave 16 frames at a time during the tick, the rest at its end", async () => {
    // The reader starts on the first frames while the writer produces the rest (pipelining).
    const calls: number[][] = [];
    const idsOf = (text: string): number[] =>
      text
        .trim()
        .split("\n")
        .map((line) => (JSON.parse(line) as { id: number }).id);
    const output = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        calls.push(idsOf(chunk.toString()));
        callback();
      },
      writev(chunks, callback) {
        calls.push(chunks.flatMap(({ chunk }) => idsOf((chunk as Buffer).toString())));
        callback();
      },
    });
    const transport = new StreamTransport(new PassThrough(), output);
    transport.start({ onMessage: () => undefined, onClose: () => undefined });
    onTestFinished(() => transport.close());
    for (let id = 1; id <= 41; id++) transport.send({ jsonrpc: "2.0", id, result: id });
    const range = (from: number, to: number): number[] =>
      Array.from({ length: to - from + 1 }, (_, i) => from + i);
    expect(calls).toEqual([[1], range(2, 17), range(18, 33)]);
    await new Promise<void>((resolve) => process.nextTick(resolve));
    expect(calls).toEqual([[1], range(2, 17), range(18, 33), range(34, 41)]);
  });

  it("delivers a final unterminated line, then closes exactly once at end of input", async () => {
    const { input, messages, closes } = harness();
    input.end('{"jsonrpc":"2.0","id":2,"result":true}');
    await waitFor(() => closes.length > 0);
    expect(messages.map(([m]) => m.id)).toEqual([2]);
    expect(closes).toEqual([undefined]);
  });

  it("returns 0 from send once closed, and close() ends the output", async () => {
    const { output, transport, closes } = harness();
    const ended = new Promise((resolve) => output.once("finish", resolve));
    output.resume();
    await transport.close();
    await within(ended, 1000, "output finish");
    expect(transport.send({ jsonrpc: "2.0", method: "x" })).toBe(0);
    expect(closes).toEqual([undefined]);
  });

  it("reports an oversized line and keeps going", async () => {
    const { input, messages, dropped } = harness(32);
    input.write(`{"jsonrpc":"2.0","id":5,"result":"${"x".repeat(100)}"}\n{"id":6,"result":1}\n`);
    await waitFor(() => messages.length === 1);
    expect(dropped).toEqual([{ reason: "oversized", bytes: 137, idHint: 5 }]);
    expect(messages[0]?.[0]).toEqual({ id: 6, result: 1 });
  });
});
