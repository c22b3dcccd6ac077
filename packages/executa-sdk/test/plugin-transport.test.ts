import { existsSync, readFileSync, rmSync } from "node:fs";
import type { JsonRpcMessage, Transport, TransportHandlers } from "@anna-ai/jsonrpc";
import { describe, expect, it } from "vitest";
import { mayExceed } from "../src/plugin-transport.js";
import { createPluginRuntime, definePlugin, p, StderrLogger } from "../src/index.js";

/** A transport that records what the runtime sends and lets the test feed frames. */
class CapturingTransport implements Transport {
  readonly sent: Record<string, unknown>[] = [];
  handlers: TransportHandlers | undefined;
  private waiters: { id: unknown; resolve: (m: Record<string, unknown>) => void }[] = [];

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
  }

  send(message: JsonRpcMessage): number {
    const frame = message as unknown as Record<string, unknown>;
    this.sent.push(frame);
    for (const waiter of this.waiters.filter((w) => w.id === frame.id)) waiter.resolve(frame);
    this.waiters = this.waiters.filter((w) => w.id !== frame.id);
    return 1;
  }

  close(): Promise<void> {
    this.handlers?.onClose();
    return Promise.resolve();
  }

  request(id: number, method: string, params?: unknown): Promise<Record<string, unknown>> {
    const answered = new Promise<Record<string, unknown>>((resolve) =>
      this.waiters.push({ id, resolve }),
    );
    this.handlers?.onMessage({ jsonrpc: "2.0", id, method, params }, { bytes: 0 });
    return answered;
  }
}

const plugin = definePlugin({
  manifest: { name: "ft", version: "1.0.0", description: "File transport." },
  tools: {
    big: {
      description: "Big.",
      parameters: { bytes: p.integer() },
      handler: ({ bytes }) => "z".repeat(bytes),
    },
  },
});

function start(): CapturingTransport {
  const transport = new CapturingTransport();
  createPluginRuntime(plugin, transport, {
    fileTransportAboveBytes: 1024,
    logger: new StderrLogger({ write: () => undefined }),
  }).start();
  return transport;
}

function readPointer(frame: Record<string, unknown>): Record<string, unknown> {
  const path = frame.__file_transport as string;
  const inner = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  rmSync(path);
  return inner;
}

describe("mayExceed", () => {
  it("is a cheap upper bound: never false for text that is actually longer", () => {
    const values: unknown[] = [
      "a".repeat(100),
      { k: "\u0001".repeat(50) },
      [1, 2, 3, "x".repeat(30)],
      { a: { b: { c: [null, true, 1.5] } } },
    ];
    for (const value of values) {
      const bytes = Buffer.byteLength(JSON.stringify(value));
      expect(mayExceed(value, bytes - 1)).toBe(true);
    }
    expect(mayExceed({ success: true, data: { text: "hi" } }, 1024)).toBe(false);
  });

  it("terminates on cyclic values", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(mayExceed(cyclic, 10_000)).toBe(true);
  });
});

describe("file transport", () => {
  it("writes a frame over the threshold to a temp file and sends a pointer with the id", async () => {
    const transport = start();
    const frame = await transport.request(7, "invoke", { tool: "big", arguments: { bytes: 5000 } });
    expect(frame).toEqual({
      jsonrpc: "2.0",
      id: 7,
      __file_transport: expect.any(String) as unknown,
    });
    const inner = readPointer(frame);
    expect(inner).toMatchObject({ id: 7, result: { success: true, data: "z".repeat(5000) } });
  });

  it("keeps small frames inline", async () => {
    const transport = start();
    const frame = await transport.request(1, "invoke", { tool: "big", arguments: { bytes: 10 } });
    expect(frame).toMatchObject({ id: 1, result: { data: "z".repeat(10) } });
  });

  it("sends inline when the host's initialize declines file transport, and resumes when it allows it", async () => {
    const transport = start();
    await transport.request(0, "initialize", {
      protocolVersion: "2.0",
      capabilities: { fileTransport: false },
    });
    const inline = await transport.request(2, "invoke", {
      tool: "big",
      arguments: { bytes: 5000 },
    });
    expect(inline.__file_transport).toBeUndefined();
    expect((inline.result as { data: string }).data.length).toBe(5000);
    await transport.request(3, "initialize", {
      protocolVersion: "2.0",
      capabilities: { fileTransport: true },
    });
    const viaFile = await transport.request(4, "invoke", {
      tool: "big",
      arguments: { bytes: 5000 },
    });
    expect(existsSync(viaFile.__file_transport as string)).toBe(true);
    readPointer(viaFile);
  });
});
