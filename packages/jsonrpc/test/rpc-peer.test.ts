import { describe, expect, it, onTestFinished } from "vitest";
import { RpcError, RpcLocalError } from "../src/errors.js";
import { createMemoryPair } from "../src/memory-transport.js";
import { RpcPeer } from "../src/rpc-peer.js";
import type { RpcPeerOptions } from "../src/rpc-peer.js";
import type {
  DroppedLine,
  FrameMeta,
  JsonRpcMessage,
  Transport,
  TransportHandlers,
} from "../src/types.js";
import { memoryLogger, waitFor, within } from "./helpers.js";

function peerPair(a: RpcPeerOptions = {}, b: RpcPeerOptions = {}): [RpcPeer, RpcPeer] {
  const [ta, tb] = createMemoryPair();
  const left = new RpcPeer(ta, { name: "host", ...a });
  const right = new RpcPeer(tb, { name: "plugin", ...b });
  onTestFinished(async () => {
    await left.close();
    await right.close();
  });
  return [left, right];
}

/** A peer wired to a raw transport end the test drives frame by frame. */
function peerWithRaw(options: RpcPeerOptions = {}): {
  peer: RpcPeer;
  raw: Transport;
  received: Record<string, unknown>[];
  next: () => Promise<Record<string, unknown>>;
  rawClosed: () => boolean;
} {
  const [tp, tr] = createMemoryPair();
  const peer = new RpcPeer(tp, { name: "host", ...options });
  const received: Record<string, unknown>[] = [];
  let closed = false;
  tr.start({
    onMessage: (message) => received.push(message),
    onClose: () => {
      closed = true;
    },
  });
  let seen = 0;
  const next = async (): Promise<Record<string, unknown>> => {
    await waitFor(() => received.length > seen, 1000, "a frame from the peer");
    return received[seen++] as Record<string, unknown>;
  };
  onTestFinished(() => peer.close());
  return { peer, raw: tr, received, next, rawClosed: () => closed };
}

describe("RpcPeer", () => {
  it("serves requests in both directions concurrently", async () => {
    const [host, plugin] = peerPair();
    plugin.onRequest("invoke", async (params) => {
      const reverse = await plugin.request<{ text: string }>("sampling/createMessage", {
        q: params,
      });
      return { success: true, data: reverse.text };
    });
    host.onRequest("sampling/createMessage", (params) => ({
      text: `answer to ${JSON.stringify(params)}`,
    }));
    host.start();
    plugin.start();
    const results = await Promise.all([1, 2, 3].map((n) => host.request("invoke", { n })));
    expect(results).toEqual(
      [1, 2, 3].map((n) => ({ success: true, data: `answer to {"q":{"n":${n}}}` })),
    );
    expect(host.pendingCount).toBe(0);
    expect(plugin.pendingCount).toBe(0);
  });

  it("numbers forward ids from 1 and honours an explicit id such as 0", async () => {
    const { peer, raw, next } = peerWithRaw();
    peer.start();
    const init = peer.request("initialize", { protocolVersion: "2.0" }, { id: 0 });
    const describeCall = peer.request("describe");
    const first = await next();
    const second = await next();
    expect(first).toEqual({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2.0" },
    });
    expect(second).toEqual({ jsonrpc: "2.0", id: 1, method: "describe" });
    expect("params" in second).toBe(false);
    raw.send({ jsonrpc: "2.0", id: 1, result: { tools: [] } });
    raw.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2.0" } });
    await expect(describeCall).resolves.toEqual({ tools: [] });
    await expect(init).resolves.toEqual({ protocolVersion: "2.0" });
  });

  it("uses a custom id generator", async () => {
    let n = 0;
    const { peer, next } = peerWithRaw({ nextId: () => `req-${++n}` });
    peer.start();
    void peer.request("a").catch(() => undefined);
    expect((await next()).id).toBe("req-1");
  });

  it("echoes reverse-request ids exactly, with their type", async () => {
    const { peer, raw, next } = peerWithRaw();
    peer.onAnyRequest((method) => ({ served: method }));
    peer.start();
    const ids = [
      "0123456789abcdef0123456789abcdef",
      "65a1f0c2b3d4e5f6a7b8c9d0",
      42,
      0,
      "7",
      "550e8400-e29b-41d4-a716-446655440000",
    ];
    for (const id of ids)
      raw.send({ jsonrpc: "2.0", id, method: "storage/get", params: { key: "k" } });
    const replies = await Promise.all(ids.map(() => next()));
    expect(replies.map((r) => r.id)).toEqual(ids);
    expect(replies.map((r) => typeof r.id)).toEqual(ids.map((id) => typeof id));
    expect(replies[0]).toEqual({ jsonrpc: "2.0", id: ids[0], result: { served: "storage/get" } });
  });

  it("keeps the two id spaces apart: a reverse request with id 1 does not answer our request 1", async () => {
    const { peer, raw, next } = peerWithRaw();
    peer.onRequest("ping", () => "pong");
    peer.start();
    const ours = peer.request("describe");
    expect((await next()).id).toBe(1);
    raw.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    expect(await next()).toEqual({ jsonrpc: "2.0", id: 1, result: "pong" });
    expect(peer.pendingCount).toBe(1);
    raw.send({ jsonrpc: "2.0", id: 1, result: "described" });
    await expect(ours).resolves.toBe("described");
  });

  it("rejects with RpcError carrying code, message, data and errorCode for an error reply", async () => {
    const { peer, raw, next } = peerWithRaw();
    peer.start();
    const call = peer.request("host/uploadFile", { mode: "inline" });
    const sent = await next();
    raw.send({
      jsonrpc: "2.0",
      id: sent.id as number,
      error: {
        code: -32201,
        message: "Upload token missing",
        data: { errorCode: "UPLOAD_NOT_GRANTED" },
      },
    });
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({
      code: -32201,
      message: "Upload token missing",
      errorCode: "UPLOAD_NOT_GRANTED",
    });
    expect((error as RpcError).toJSON()).toEqual({
      code: -32201,
      message: "Upload token missing",
      data: { errorCode: "UPLOAD_NOT_GRANTED" },
    });
  });

  it("times out with RpcLocalError TIMEOUT and logs the late reply as unmatched", async () => {
    const logger = memoryLogger();
    const { peer, raw, next } = peerWithRaw({ logger });
    peer.start();
    const call = peer.request("invoke", {}, { timeoutMs: 20 });
    const sent = await next();
    await expect(call).rejects.toMatchObject({ name: "RpcLocalError", code: "TIMEOUT" });
    expect(peer.pendingCount).toBe(0);
    raw.send({ jsonrpc: "2.0", id: sent.id as number, result: "late" });
    await waitFor(() =>
      logger.records.some((r) => r.message === `unmatched response id=${String(sent.id)}`),
    );
  });

  it("treats a timeout beyond the timer range as no timeout", async () => {
    const { peer, raw, next } = peerWithRaw();
    peer.start();
    const call = peer.request("invoke", {}, { timeoutMs: Number.POSITIVE_INFINITY });
    const other = peer.request("invoke", {}, { timeoutMs: 2 ** 31 });
    await next();
    await next();
    raw.send({ jsonrpc: "2.0", id: 1, result: "done" });
    raw.send({ jsonrpc: "2.0", id: 2, result: "done" });
    await expect(call).resolves.toBe("done");
    await expect(other).resolves.toBe("done");
  });

  it("times out a short request sent after a long one first, and one sent after an answered one on its own deadline", async () => {
    // One timer serves every deadline of a peer: it must be moved earlier for the short request
    // and still fire for a request whose deadline lies past the one it was armed for.
    const { peer, raw, next } = peerWithRaw();
    peer.start();
    const long = peer.request("long", {}, { timeoutMs: 60_000 });
    const short = peer.request("short", {}, { timeoutMs: 15 });
    await next();
    await next();
    await expect(short).rejects.toMatchObject({ code: "TIMEOUT", message: /short .* 15 ms/ });
    raw.send({ jsonrpc: "2.0", id: 1, result: "long done" });
    await expect(long).resolves.toBe("long done");

    const answered = peer.request("answered", {}, { timeoutMs: 30 });
    await next();
    raw.send({ jsonrpc: "2.0", id: 3, result: "ok" });
    await expect(answered).resolves.toBe("ok");
    await new Promise((resolve) => setTimeout(resolve, 10));
    const later = peer.request("later", {}, { timeoutMs: 40 });
    await next();
    // The timer armed for `answered` fires before `later` is due: `later` must survive it.
    await new Promise((resolve) => setTimeout(resolve, 25));
    expect(peer.pendingCount).toBe(1);
    await expect(later).rejects.toMatchObject({ code: "TIMEOUT", message: /later .* 40 ms/ });
    expect(peer.pendingCount).toBe(0);
  });

  it("applies the default timeout to requests without their own", async () => {
    const { peer } = peerWithRaw({ defaultTimeoutMs: 10 });
    peer.start();
    await expect(peer.request("describe")).rejects.toMatchObject({ code: "TIMEOUT" });
  });

  it("rejects with ABORTED when the signal aborts, and before sending when already aborted", async () => {
    const { peer, received, next } = peerWithRaw();
    peer.start();
    const controller = new AbortController();
    const call = peer.request("invoke", {}, { signal: controller.signal });
    await next();
    controller.abort(new Error("user cancelled"));
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcLocalError);
    expect(error).toMatchObject({ code: "ABORTED" });
    expect((error as Error).cause).toEqual(new Error("user cancelled"));
    expect(peer.pendingCount).toBe(0);
    await expect(peer.request("invoke", {}, { signal: controller.signal })).rejects.toMatchObject({
      code: "ABORTED",
    });
    expect(received).toHaveLength(1);
  });

  it("rejects every pending request with CONNECTION_CLOSED naming the peer when the other side closes", async () => {
    const { peer, raw, next } = peerWithRaw({ name: "weather-plugin" });
    peer.start();
    const calls = [peer.request("a"), peer.request("b", {}, { timeoutMs: 60_000 })];
    await next();
    await next();
    await raw.close();
    for (const call of calls) {
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RpcLocalError);
      expect(error).toMatchObject({ code: "CONNECTION_CLOSED" });
      expect((error as Error).message).toContain("weather-plugin");
    }
    await within(peer.closed, 1000, "peer.closed");
    expect(peer.isClosed).toBe(true);
    await expect(peer.request("c")).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
  });

  it("aborts running handlers' signals and rejects pending requests on close()", async () => {
    const [host, plugin] = peerPair();
    let handlerSignal: AbortSignal | undefined;
    let entered!: () => void;
    const handlerEntered = new Promise<void>((resolve) => {
      entered = resolve;
    });
    plugin.onRequest("invoke", (_params, request) => {
      handlerSignal = request.signal;
      entered();
      return new Promise(() => undefined);
    });
    host.start();
    plugin.start();
    const call = host.request("invoke");
    await within(handlerEntered, 1000, "handler");
    await plugin.close(new Error("shutting down"));
    expect(handlerSignal?.aborted).toBe(true);
    await expect(call).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
  });

  it("maps handler results and throws onto the wire", async () => {
    const { peer, raw, next } = peerWithRaw();
    peer.onRequest("undef", () => undefined);
    peer.onRequest("async", () => Promise.resolve({ ok: true }));
    peer.onRequest("rpc-error", () => {
      throw new RpcError(-32021, "not granted", { errorCode: "STORAGE_NOT_GRANTED" });
    });
    peer.onRequest("crash", () => {
      throw new TypeError("cannot read properties of undefined");
    });
    peer.onRequest("async-crash", () => Promise.reject(new Error("boom")));
    peer.onRequest("bigint", () => ({ n: 10n }));
    peer.start();
    for (const [id, method] of [
      "undef",
      "async",
      "rpc-error",
      "crash",
      "async-crash",
      "bigint",
    ].entries()) {
      raw.send({ jsonrpc: "2.0", id, method });
    }
    const replies = new Map<unknown, Record<string, unknown>>();
    for (let i = 0; i < 6; i++) {
      const reply = await next();
      replies.set(reply.id, reply);
    }
    expect(replies.get(0)).toEqual({ jsonrpc: "2.0", id: 0, result: null });
    expect(replies.get(1)).toEqual({ jsonrpc: "2.0", id: 1, result: { ok: true } });
    expect(replies.get(2)).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32021, message: "not granted", data: { errorCode: "STORAGE_NOT_GRANTED" } },
    });
    expect(replies.get(3)).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32603, message: "cannot read properties of undefined" },
    });
    expect(replies.get(4)).toEqual({
      jsonrpc: "2.0",
      id: 4,
      error: { code: -32603, message: "boom" },
    });
    expect(replies.get(5)).toMatchObject({ id: 5, error: { code: -32603 } });
  });

  it("answers -32601 without a handler, and routes to onAnyRequest as the fallback", async () => {
    const { peer, raw, next } = peerWithRaw();
    peer.start();
    raw.send({ jsonrpc: "2.0", id: "x1", method: "shutdown" });
    expect(await next()).toEqual({
      jsonrpc: "2.0",
      id: "x1",
      error: { code: -32601, message: "Method not found: shutdown" },
    });
    const seen: unknown[] = [];
    const fallback = peer.onAnyRequest((method, params, request) => {
      seen.push([method, params, request.id]);
      return "handled";
    });
    peer.onRequest("health", () => ({ status: "ok" }));
    raw.send({ jsonrpc: "2.0", id: 2, method: "shutdown", params: { a: 1 } });
    raw.send({ jsonrpc: "2.0", id: 3, method: "health" });
    expect(await next()).toEqual({ jsonrpc: "2.0", id: 2, result: "handled" });
    expect(await next()).toEqual({ jsonrpc: "2.0", id: 3, result: { status: "ok" } });
    expect(seen).toEqual([["shutdown", { a: 1 }, 2]]);
    fallback.dispose();
    raw.send({ jsonrpc: "2.0", id: 4, method: "shutdown" });
    expect((await next()).error).toMatchObject({ code: -32601 });
  });

  it("answers an invalid request with -32600 and drops a frame with neither method nor id", async () => {
    const logger = memoryLogger();
    const { peer, raw, next, received } = peerWithRaw({ logger });
    peer.start();
    raw.send({ jsonrpc: "2.0", id: 5, method: 12 } as unknown as JsonRpcMessage);
    expect(await next()).toEqual({
      jsonrpc: "2.0",
      id: 5,
      error: { code: -32600, message: "Invalid Request" },
    });
    raw.send({ jsonrpc: "2.0", id: { bad: true }, method: "x" } as unknown as JsonRpcMessage);
    expect(await next()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid Request" },
    });
    raw.send({ jsonrpc: "2.0", hello: "world" } as unknown as JsonRpcMessage);
    await waitFor(() => logger.records.some((r) => r.message.startsWith("frame with neither")));
    expect(received).toHaveLength(2);
  });

  it("logs and drops a response with an unknown id", async () => {
    const logger = memoryLogger();
    const { peer, raw } = peerWithRaw({ logger, name: "p1" });
    peer.start();
    raw.send({ jsonrpc: "2.0", id: "nope", result: 1 });
    await waitFor(() => logger.records.length > 0);
    expect(logger.records[0]).toMatchObject({
      level: "warn",
      message: 'unmatched response id="nope"',
      fields: { peer: "p1" },
    });
  });

  it("matches a reply whose id is our integer id stringified", async () => {
    const { peer, raw, next } = peerWithRaw();
    peer.start();
    const call = peer.request("describe");
    await next();
    raw.send({ jsonrpc: "2.0", id: "1", result: "ok" });
    await expect(call).resolves.toBe("ok");
  });

  it("delivers notifications to their handler, then to the fallback, and survives a throwing handler", async () => {
    const logger = memoryLogger();
    const [host, plugin] = peerPair({ logger });
    const progress: unknown[] = [];
    const other: unknown[] = [];
    host.onNotification("executa/progress", (params, meta) => {
      progress.push([params, meta.bytes > 0]);
      throw new Error("observer bug");
    });
    host.onAnyNotification((method, params) => other.push([method, params]));
    host.start();
    plugin.start();
    plugin.notify("executa/progress", { pct: 50 });
    plugin.notify("log");
    await waitFor(() => progress.length === 1 && other.length === 1);
    expect(progress).toEqual([[{ pct: 50 }, true]]);
    expect(other).toEqual([["log", undefined]]);
    expect(logger.records.some((r) => r.message === "notification handler threw")).toBe(true);
  });

  it("never sends params: null", async () => {
    const { peer, next } = peerWithRaw();
    peer.start();
    peer.notify("n");
    void peer.request("r").catch(() => undefined);
    const frames = [await next(), await next()];
    for (const frame of frames) expect("params" in frame).toBe(false);
  });

  it("shows every frame to observers in wire order with byte counts", async () => {
    const [host, plugin] = peerPair();
    const seen: [string, string, number][] = [];
    const sub = host.observe((direction, message, meta: FrameMeta) => {
      seen.push([direction, "method" in message ? message.method : "response", meta.bytes]);
    });
    plugin.onRequest("describe", () => ({ tools: [] }));
    host.start();
    plugin.start();
    await host.request("describe");
    sub.dispose();
    await host.request("describe");
    expect(seen).toEqual([
      ["out", "describe", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "describe" }).length + 1],
      [
        "in",
        "response",
        JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools: [] } }).length + 1,
      ],
    ]);
  });

  it("fails the matching request with FRAME_TOO_LARGE when its reply was oversized", async () => {
    const logger = memoryLogger();
    let handlers!: TransportHandlers;
    const sent: JsonRpcMessage[] = [];
    const transport: Transport = {
      start: (h) => {
        handlers = h;
      },
      send: (m) => {
        sent.push(m);
        return 1;
      },
      close: () => Promise.resolve(),
    };
    const peer = new RpcPeer(transport, { logger });
    onTestFinished(() => peer.close());
    peer.start();
    const call = peer.request("invoke");
    const other = peer.request("describe");
    handlers.onDropped?.({
      reason: "oversized",
      bytes: 20_000_000,
      idHint: 1,
    } satisfies DroppedLine);
    await expect(call).rejects.toMatchObject({ name: "RpcLocalError", code: "FRAME_TOO_LARGE" });
    expect(peer.pendingCount).toBe(1);
    // An oversized reverse request is answered so the other side does not hang (H2).
    handlers.onDropped?.({
      reason: "oversized",
      bytes: 20_000_000,
      idHint: "abc",
      methodHint: "host/uploadFile",
    });
    expect(sent.at(-1)).toMatchObject({
      id: "abc",
      error: { code: -32600, data: { errorCode: "FRAME_TOO_LARGE" } },
    });
    handlers.onDropped?.({
      reason: "file_transport_failed",
      path: "/etc/passwd",
      error: "refused",
      idHint: 2,
    });
    await expect(other).rejects.toMatchObject({ code: "INVALID_FRAME" });
    handlers.onDropped?.({ reason: "not_json", preview: "hello", bytes: 6 });
    expect(logger.records.map((r) => r.message)).toContain("unreadable line skipped");
    expect(peer.isClosed).toBe(false);
  });

  it("rejects a request whose params JSON cannot carry without leaving it pending", async () => {
    const [host, plugin] = peerPair();
    host.start();
    plugin.start();
    await expect(host.request("x", { n: 1n })).rejects.toThrow(TypeError);
    expect(host.pendingCount).toBe(0);
  });
});
