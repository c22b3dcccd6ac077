// The runtime app served over real HTTP on 127.0.0.1 by @hono/node-server, as a server mounts
// it: a call round-trips, a client that hangs up aborts its call, a stream delivers events and
// ends when the server ends it, and a client that stops reading loses its socket.
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import type { Server } from "node:http";
import { createAdaptorServer } from "@hono/node-server";
import { afterEach, describe, expect, it } from "vitest";
import {
  createRuntimeApp,
  RUNTIME_EVENTS_ROUTE,
  RUNTIME_RPC_ROUTE,
  SseStreams,
  type RuntimeAppOptions,
} from "../../src/http/index.js";
import { makeEvent, type Dispatcher } from "../../src/index.js";
import { openDispatcher } from "../helpers.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(
  options: Partial<RuntimeAppOptions> = {},
): Promise<{ base: string; port: number; dispatcher: Dispatcher; token: string; wid: string }> {
  const { dispatcher, token, wid } = await openDispatcher({ storage: ["get", "set"] });
  const app = createRuntimeApp({
    dispatcher,
    caller: () => ({ userId: dispatcher.userId, appId: dispatcher.appId }),
    windowUrl: () => "",
    ...options,
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { base: `http://127.0.0.1:${port}`, port, dispatcher, token, wid };
}

const QUIET = { debug() {}, info() {}, error() {} };

describe("the runtime app over node:http", () => {
  it("round-trips an rpc call with the JSON headers", async () => {
    const { base, token, wid } = await serve();
    const res = await fetch(`${base}${RUNTIME_RPC_ROUTE}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-anna-app-token": token },
      body: JSON.stringify({
        id: 1,
        window_uuid: wid,
        ns: "storage",
        method: "get",
        args: { key: "k" },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toMatchObject({ id: 1, ok: true });
  });

  it("aborts the call's signal when the client hangs up before its answer", async () => {
    let aborted!: () => void;
    const sawAbort = new Promise<void>((resolve) => (aborted = resolve));
    let started!: () => void;
    const sawStart = new Promise<void>((resolve) => (started = resolve));
    const { base, wid } = await serve({
      answerCall: (call) =>
        new Promise((resolve) => {
          started();
          call.signal.addEventListener("abort", () => {
            aborted();
            resolve({ ok: false, error: { code: "cancelled", message: "gone" } });
          });
        }),
    });
    const client = new AbortController();
    const pending = fetch(`${base}${RUNTIME_RPC_ROUTE}`, {
      method: "POST",
      body: JSON.stringify({ id: 1, window_uuid: wid, ns: "tools", method: "invoke" }),
      signal: client.signal,
    }).catch(() => undefined);
    await sawStart;
    client.abort();
    await pending;
    await sawAbort;
  });

  it("streams events, and ends the stream (the response completes) when the server ends it", async () => {
    const streams = new SseStreams({ ...QUIET, warn() {} });
    const { base, dispatcher } = await serve({ streams });
    const res = await fetch(`${base}${RUNTIME_EVENTS_ROUTE}`);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes(": connected")) text += decoder.decode((await reader.read()).value);
    dispatcher.emit(
      dispatcher.userId,
      makeEvent("ping", { appId: dispatcher.appId }, { n: 1 }, Date.now()),
    );
    while (!text.includes('"kind":"ping"')) text += decoder.decode((await reader.read()).value);
    streams.endAll();
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
    expect(streams.size).toBe(0);
  });

  it("destroys the socket of a client that stops reading, and logs the drop", async () => {
    const warned: Record<string, unknown>[] = [];
    const streams = new SseStreams(
      { ...QUIET, warn: (_m, fields) => warned.push(fields ?? {}) },
      { clientBufferMaxBytes: 64 * 1024 },
    );
    const { port, dispatcher } = await serve({ streams });
    const socket = connect(port, "127.0.0.1");
    const closed = new Promise((resolve) => socket.once("close", resolve));
    await new Promise<void>((resolve, reject) => {
      socket.once("error", reject);
      socket.once("data", () => {
        socket.pause();
        resolve();
      });
      socket.write(`GET ${RUNTIME_EVENTS_ROUTE} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    });
    const pad = "x".repeat(256 * 1024);
    // Loopback buffers take a few MiB before the queue grows; 200 events are 50 MiB.
    for (let i = 0; i < 200 && streams.size > 0; i++) {
      dispatcher.emit(
        dispatcher.userId,
        makeEvent("ping", { appId: dispatcher.appId }, { pad }, Date.now()),
      );
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(streams.size).toBe(0);
    expect(warned[0]).toMatchObject({ route: RUNTIME_EVENTS_ROUTE, limit_bytes: 64 * 1024 });
    socket.resume();
    await closed;
  });
});
