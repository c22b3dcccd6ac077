import { describe, expect, it, onTestFinished } from "vitest";
import { createMemoryPair } from "../src/memory-transport.js";
import { RecordingTransport } from "../src/recording-transport.js";
import type { RecordedFrame, RecordingSink } from "../src/recording-transport.js";
import { RpcPeer } from "../src/rpc-peer.js";
import type { Transport, TransportHandlers } from "../src/types.js";
import { memoryLogger } from "./helpers.js";

function arraySink(): RecordingSink & { lines: string[]; closes: number } {
  const sink = {
    lines: [] as string[],
    closes: 0,
    write(line: string) {
      sink.lines.push(line);
    },
    close() {
      sink.closes++;
    },
  };
  return sink;
}

describe("RecordingTransport", () => {
  it("writes one redacted JSONL line per frame in both directions with t and ts", async () => {
    let clock = Date.parse("2026-01-01T00:00:00.000Z");
    const [a, b] = createMemoryPair();
    const sink = arraySink();
    const host = new RpcPeer(new RecordingTransport(a, sink, { now: () => clock }));
    const plugin = new RpcPeer(b);
    onTestFinished(async () => {
      await host.close();
      await plugin.close();
    });
    plugin.onRequest("invoke", (params) => {
      clock += 25;
      return { echoed: params };
    });
    host.start();
    plugin.start();
    await host.request("invoke", { context: { credentials: { KEY: "v" }, upload_token: "jwt" } });
    await host.close();
    expect(sink.lines.every((line) => line.endsWith("\n"))).toBe(true);
    const frames = sink.lines.map((line) => JSON.parse(line) as RecordedFrame);
    const redacted = {
      context: { credentials: { KEY: "[REDACTED]" }, upload_token: "[REDACTED]" },
    };
    expect(frames).toEqual([
      {
        t: 0,
        ts: "2026-01-01T00:00:00.000Z",
        dir: "out",
        bytes: expect.any(Number) as unknown,
        msg: { jsonrpc: "2.0", id: 1, method: "invoke", params: redacted },
      },
      {
        t: 25,
        ts: "2026-01-01T00:00:00.025Z",
        dir: "in",
        bytes: expect.any(Number) as unknown,
        msg: { jsonrpc: "2.0", id: 1, result: { echoed: redacted } },
      },
    ]);
    expect(sink.closes).toBe(1);
  });

  it("records dropped lines without their preview and survives a failing sink", () => {
    let handlers!: TransportHandlers;
    const inner: Transport = {
      start: (h) => {
        handlers = h;
      },
      send: () => 10,
      close: () => Promise.resolve(),
    };
    const sink = arraySink();
    const recording = new RecordingTransport(inner, sink, { now: () => 0 });
    const dropped: unknown[] = [];
    recording.start({
      onMessage: () => undefined,
      onDropped: (d) => dropped.push(d),
      onClose: () => undefined,
    });
    handlers.onDropped?.({ reason: "not_json", preview: "password=hunter2", bytes: 17 });
    expect(dropped).toHaveLength(1);
    expect(JSON.parse(sink.lines[0] ?? "")).toEqual({
      t: 0,
      ts: new Date(0).toISOString(),
      dir: "in",
      bytes: 17,
      dropped: { reason: "not_json" },
    });

    const logger = memoryLogger();
    const failing = new RecordingTransport(
      inner,
      {
        write: () => {
          throw new Error("disk full");
        },
      },
      { logger },
    );
    expect(failing.send({ jsonrpc: "2.0", method: "x" })).toBe(10);
    expect(logger.records[0]).toMatchObject({ level: "warn", message: "recording sink failed" });
  });
});
