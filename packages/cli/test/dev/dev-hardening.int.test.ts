// The harness under attack on the developer's machine: a page on a DNS-rebound name, clients that
// open streams and never read them, bodies built to crash a parser, escapes no decoder accepts.
// Each is refused with its documented code before it costs anything, and the harness keeps serving.
// (Foreign Origins and forged tokens: dev-bad-input.int.test.ts; random requests: dev-fuzz.)
import { request, type IncomingMessage } from "node:http";
import { connect } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { SDK_ROUTE, type DevServer } from "../../src/dev/dev-server.js";
import { JSON_MAX_DEPTH, SSE_STREAMS_MAX, SSE_STREAMS_PER_ROUTE_MAX } from "@anna-ai/app-core/http";
import type { Logger } from "@anna-ai/jsonrpc";
import { rawRequest, rpc, scaffoldTestApp, SLUG, startHarness, tokenOf } from "./helpers.js";

const RUNTIME = "/api/v1/anna-apps/runtime";
const EVENTS = `${RUNTIME}/events/stream`;

interface Answer {
  status: number;
  body: string;
}

/** A request with a Host header of our choosing (or none), answered in full or at first data. */
function withHost(
  server: DevServer,
  method: string,
  path: string,
  host: string | undefined,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: server.port,
        method,
        path,
        setHost: false,
        headers: {
          ...(host === undefined ? {} : { host }),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        // An event stream never ends: its first chunk is the answer.
        const done = () => {
          resolve({ status: res.statusCode ?? 0, body: text });
          req.destroy();
        };
        res.on("data", (chunk: string) => {
          text += chunk;
          if (String(res.headers["content-type"]).startsWith("text/event-stream")) done();
        });
        res.on("end", done);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A logger whose warnings a test can await. */
function watchingLogger(): { logger: Logger; warned(message: string): Promise<unknown> } {
  const waiters: { message: string; resolve(fields: unknown): void }[] = [];
  const seen: { message: string; fields: unknown }[] = [];
  const warn = (message: string, fields?: Record<string, unknown>) => {
    seen.push({ message, fields });
    for (const w of waiters) if (w.message === message) w.resolve(fields);
  };
  const noop = () => undefined;
  return {
    logger: { debug: noop, info: noop, warn, error: noop },
    warned: (message) =>
      new Promise((resolve) => {
        const hit = seen.find((s) => s.message === message);
        if (hit !== undefined) resolve(hit.fields);
        else waiters.push({ message, resolve });
      }),
  };
}

/** An open stream read up to its first chunk; closed with the test. */
function openStream(
  server: DevServer,
  path: string,
): Promise<{ res: IncomingMessage; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: server.port, path }, (res) => {
      const close = () => void req.destroy();
      onTestFinished(close);
      res.once("data", () => resolve({ res, close }));
      res.once("end", () => resolve({ res, close }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("anna-app dev hardening", () => {
  it("refuses every route for a Host that is not its loopback address (DNS rebinding) and leaks nothing", async () => {
    const server = await startHarness(await scaffoldTestApp());
    const wid = server.window.window_uuid;
    const token = tokenOf(server);
    const envelope = JSON.stringify({
      id: 1,
      window_uuid: wid,
      ns: "storage",
      method: "get",
      args: { key: "visits" },
    });
    const routes: [string, string, string?][] = [
      ["GET", "/"],
      ["GET", "/dev/main.js"],
      ["GET", `/anna-apps/${SLUG}/dev/index.html?wid=${wid}&t=${token}`],
      ["GET", `/anna-apps/${SLUG}/dev/logic.js`],
      ["GET", SDK_ROUTE],
      ["GET", "/dev/api/state"],
      ["GET", "/dev/api/fixtures"],
      ["GET", "/dev/stream"],
      ["GET", EVENTS],
      ["GET", `${RUNTIME}/windows`],
      ["GET", `${RUNTIME}/windows/${wid}`],
      ["POST", `${RUNTIME}/windows`, JSON.stringify({ view: "main" })],
      ["POST", `${RUNTIME}/rpc`, envelope],
      ["POST", "/dev/api/events", JSON.stringify({ kind: "ping", payload: {} })],
      ["DELETE", `${RUNTIME}/windows/${wid}`],
      ["GET", "/no-such-route"],
    ];
    const port = server.port;
    const hostile = [
      `evil.example:${port}`,
      "evil.example",
      `127.0.0.1.evil.example:${port}`,
      `127.0.0.1:${port + 1}`,
    ];
    for (const host of hostile) {
      for (const [method, path, body] of routes) {
        const answer = await withHost(server, method, path, host, body);
        expect({ host, method, path, status: answer.status }).toEqual({
          host,
          method,
          path,
          status: 421,
        });
        expect(JSON.parse(answer.body)).toMatchObject({
          ok: false,
          error: { code: "misdirected_host" },
        });
        for (const secret of [wid, token, SLUG, "visits"])
          expect(answer.body).not.toContain(secret);
      }
    }
    // No Host at all: node's parser refuses it (HTTP/1.1 requires one) before the harness sees it.
    const noHost = await withHost(server, "GET", "/dev/api/state", undefined);
    expect(noHost.status).toBe(400);
    expect(noHost.body).not.toContain(wid);
    // Nothing reached a route: no call in the panel, the window still open and the only one.
    expect(server.panel.calls).toEqual([]);
    expect(
      (await server.dispatcher.listWindows(server.dispatcher.userId)).map((w) => w.window_uuid),
    ).toEqual([wid]);
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `[::1]:${port}`,
    ]) {
      expect({
        host,
        status: (await withHost(server, "GET", "/dev/api/state", host)).status,
      }).toEqual({ host, status: 200 });
    }
  });

  it("drops an event stream whose client stops reading once its unsent bytes pass the limit, and keeps serving others", async () => {
    const watch = watchingLogger();
    const server = await startHarness(await scaffoldTestApp(), { logger: watch.logger });
    const socket = connect(server.port, "127.0.0.1");
    onTestFinished(() => void socket.destroy());
    await new Promise<void>((resolve, reject) => {
      socket.once("error", reject);
      socket.once("data", () => {
        // The stream is open (headers and its first comment arrived): from now on never read.
        socket.pause();
        resolve();
      });
      socket.write(`GET ${EVENTS} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    });
    const dropped = watch.warned("dropped an event stream whose client stopped reading");
    let stop = false;
    void dropped.then(() => (stop = true));
    const pad = "x".repeat(512 * 1024);
    // Bounded by count: loopback kernel buffers take a few MiB, the limit one more; 400 pings are 200 MiB.
    for (let i = 0; i < 400 && !stop; i++) {
      const res = await fetch(`${server.url}dev/api/events`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ kind: "ping", payload: { pad } }),
      });
      expect(res.status).toBe(202);
    }
    expect(await dropped).toMatchObject({ route: EVENTS, limit_bytes: 1024 * 1024 });
    // A reading client still gets events.
    const fresh = await openStream(server, EVENTS);
    const got = new Promise<string>((resolve) => {
      let text = "";
      fresh.res.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('"kind":"ping"')) resolve(text);
      });
    });
    await fetch(`${server.url}dev/api/events`, {
      method: "POST",
      body: JSON.stringify({ kind: "ping", payload: { n: 1 } }),
    });
    expect(await got).toContain("data_model/AnnaAppEvent");
  });

  it("caps event streams per route and in total with 429 too_many_streams, and frees a slot when one closes", async () => {
    const server = await startHarness(await scaffoldTestApp());
    const events: { res: IncomingMessage; close(): void }[] = [];
    for (let i = 0; i < SSE_STREAMS_PER_ROUTE_MAX; i++)
      events.push(await openStream(server, EVENTS));
    expect(events.every((s) => s.res.statusCode === 200)).toBe(true);
    const refused = await withHost(server, "GET", EVENTS, `127.0.0.1:${server.port}`);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: {
        code: "too_many_streams",
        message: expect.stringContaining(`at most ${SSE_STREAMS_PER_ROUTE_MAX}`),
      },
    });
    const panels: { res: IncomingMessage; close(): void }[] = [];
    for (let i = 0; i < SSE_STREAMS_MAX - SSE_STREAMS_PER_ROUTE_MAX; i++)
      panels.push(await openStream(server, "/dev/stream"));
    expect(panels.every((s) => s.res.statusCode === 200)).toBe(true);
    // The total is reached: even a route with room is refused.
    expect((await withHost(server, "GET", "/dev/stream", `127.0.0.1:${server.port}`)).status).toBe(
      429,
    );
    const closed = new Promise((resolve) => events[0]?.res.once("close", resolve));
    events[0]?.close();
    await closed;
    // The server sees the close a moment after the client: retry on its event, not a timer.
    let reopened = await openStream(server, EVENTS);
    for (let i = 0; i < 50 && reopened.res.statusCode === 429; i++)
      reopened = await openStream(server, EVENTS);
    expect(reopened.res.statusCode).toBe(200);
    expect(
      (await rpc(server, tokenOf(server), "storage", "get", { key: "visits" })).body,
    ).toMatchObject({ ok: true });
  });

  it("refuses JSON nested deeper than the limit with 400 invalid_arg, before it reaches a handler", async () => {
    const server = await startHarness(await scaffoldTestApp());
    const wid = server.window.window_uuid;
    const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
    for (const depth of [JSON_MAX_DEPTH + 1, 100_000]) {
      const body = `{"id":1,"window_uuid":"${wid}","ns":"storage","method":"set","args":{"key":"k","value":${nested(depth - 2)}}}`;
      const res = await rawRequest(server, "POST", `${RUNTIME}/rpc`, {
        "content-type": "application/json",
      });
      void res;
      const answer = await withHost(
        server,
        "POST",
        `${RUNTIME}/rpc`,
        `127.0.0.1:${server.port}`,
        body,
      );
      expect({ depth, status: answer.status }).toEqual({ depth, status: 400 });
      expect(JSON.parse(answer.body)).toMatchObject({
        error: {
          code: "invalid_arg",
          message: expect.stringContaining(`deeper than ${JSON_MAX_DEPTH}`),
        },
      });
    }
    // Brackets inside strings are text, and the limit itself is accepted.
    const atLimit = `{"id":1,"window_uuid":"${wid}","ns":"storage","method":"set","args":{"key":"k","value":${nested(JSON_MAX_DEPTH - 2)},"s":"${"[".repeat(1000)}"}}`;
    const ok = await withHost(
      server,
      "POST",
      `${RUNTIME}/rpc`,
      `127.0.0.1:${server.port}`,
      atLimit,
    );
    expect(ok.status).toBe(200);
    expect(server.panel.calls.map((c) => c.method)).toEqual(["set"]);
  });

  it("answers a malformed %-escape in a window id with 400 invalid_path, on every method", async () => {
    const server = await startHarness(await scaffoldTestApp());
    for (const escape of ["%zz", "%", "%E0%A4%A", "%ff", "abc%2"]) {
      for (const method of ["GET", "PATCH", "DELETE"]) {
        const res = await rawRequest(
          server,
          method,
          `${RUNTIME}/windows/${escape}`,
          {},
          method === "PATCH" ? { title: "x" } : undefined,
        );
        expect({ escape, method, status: res.status }).toEqual({ escape, method, status: 400 });
        expect(JSON.parse(res.body)).toMatchObject({ error: { code: "invalid_path" } });
      }
    }
    expect(
      (await rawRequest(server, "GET", `${RUNTIME}/windows/${server.window.window_uuid}`)).status,
    ).toBe(200);
  });

  it("refuses a form or multipart body with 415 unsupported_media_type; JSON, text/plain and no type are read", async () => {
    const server = await startHarness(await scaffoldTestApp());
    const envelope = {
      id: 1,
      window_uuid: server.window.window_uuid,
      ns: "storage",
      method: "get",
      args: { key: "visits" },
    };
    for (const type of [
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "text/html",
      "image/png",
    ]) {
      const res = await rawRequest(
        server,
        "POST",
        `${RUNTIME}/rpc`,
        { "content-type": type },
        envelope,
      );
      expect({ type, status: res.status }).toEqual({ type, status: 415 });
      expect(JSON.parse(res.body)).toMatchObject({
        error: {
          code: "unsupported_media_type",
          message: expect.stringContaining("application/json"),
        },
      });
    }
    expect(server.panel.calls).toEqual([]);
    for (const type of [
      "application/json",
      "application/json; charset=utf-8",
      "text/plain;charset=UTF-8",
    ]) {
      const res = await rawRequest(
        server,
        "POST",
        `${RUNTIME}/rpc`,
        { "content-type": type, "x-anna-app-token": tokenOf(server) },
        envelope,
      );
      expect({ type, status: res.status }).toEqual({ type, status: 200 });
    }
  });
});
