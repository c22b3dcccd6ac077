// A small real runtime for the window host's browser tests: HTTP on 127.0.0.1 port 0 answering
// the runtime routes as the platform and `anna-app dev` do (windows REST, rpc, the event stream),
// the two browser bundles (the SDK, the window host) built fresh from dist/, a host page that
// runs `createWindowHost`, and two app pages: one running the real SDK, one raw page that keeps
// what the parent posts and sends what the test asks it to. It records what the page sent.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE = fileURLToPath(new URL("../..", import.meta.url));
const API = "/api/v1/anna-apps/runtime";
export const APP_ID = "app-1";

export interface RpcSeen {
  token: string | undefined;
  body: { id: string; window_uuid: string; ns: string; method: string; args: unknown };
}

export interface ServedWindow {
  window_uuid: string;
  view: string;
  app_id: string;
  title: string;
  status: string;
  geometry: Record<string, number>;
  z_index: number;
}

/** A token the SDK can read the expiry of (an unsigned JWT: the host does not verify it). */
export function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part(claims)}.sig`;
}

/** The claims of a token `jwt()` made. */
export function claimsOf(token: string | undefined): Record<string, unknown> {
  const payload = token?.split(".")[1];
  return payload === undefined
    ? {}
    : (JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>);
}

const HOST_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>window host</title></head>
<body>
<div id="frames" style="position:relative;width:1000px;height:600px"></div>
<nav id="dock"></nav>
<script type="module">
  import { createWindowHost } from "/host.js";
  window.reports = [];
  window.seenEvents = [];
  window.resyncs = [];
  const host = createWindowHost({
    container: document.getElementById("frames"),
    dock: document.getElementById("dock"),
    views: [{ name: "raw", min_size: { w: 200, h: 150 } }],
    onReport: (report) => window.reports.push(report),
  });
  host.start();
  host.followEvents({
    onEvent: (event) => window.seenEvents.push(event),
    onResync: (resync) => window.resyncs.push(resync),
  });
  window.host = host;
  document.body.dataset.ready = "true";
</script>
</body></html>`;

/** The real SDK in the iframe: connects, then makes the calls the test asks for. */
const SDK_APP_PAGE = `<!doctype html><html><head><meta charset="utf-8"></head><body>
<script type="module">
  import { AnnaAppRuntime } from "/static/anna-apps/_sdk/latest/index.js";
  window.refreshes = [];
  const anna = await AnnaAppRuntime.connect({ timeoutMs: 5000 });
  anna.on("auth.refresh", (payload) => window.refreshes.push(payload));
  window.origin_seen = self.origin;
  window.call = (ns, method, args) =>
    anna.call(ns, method, args).then((result) => ({ result }), (error) => ({ error: error.code }));
  window.connected = true;
</script></body></html>`;

/** No SDK: keeps what the parent posts, posts what the test asks, from itself or a child frame. */
const RAW_APP_PAGE = `<!doctype html><html><head><meta charset="utf-8"></head><body>
<script>
  window.received = [];
  window.addEventListener("message", (e) => window.received.push(e.data));
  window.send = (message) => parent.postMessage(message, "*");
  // A frame inside the app's document posting to the host page: its source is not the app's window.
  window.sendFromChild = (message) => {
    const child = document.createElement("iframe");
    child.srcdoc = "<script>top.postMessage(" + JSON.stringify(message) + ", '*')<\\/script>";
    document.body.append(child);
  };
</script></body></html>`;

export interface RuntimeServer {
  url: string;
  rpcs: RpcSeen[];
  patches: Array<{ wid: string; body: Record<string, unknown> }>;
  /** Every token minted, in order (the first per window by POST, the rest by GET). */
  minted: string[];
  windows: Map<string, ServedWindow>;
  /** How long the first token of a window lives, in seconds (the SDK refreshes 30 s early). */
  firstTokenLifetimeS: number;
  /** Open event streams. */
  streams(): number;
  /** Sends an AnnaAppEvent on every open stream, with an `id:` line when `seq` is given. */
  emit(event: Record<string, unknown>, seq?: number): void;
  /** Sends an `anna.resync` frame on every open stream. */
  resync(data: Record<string, unknown>): void;
  close(): Promise<void>;
}

/** Builds both bundles into a temp folder and starts the server. */
export async function startRuntimeServer(): Promise<RuntimeServer> {
  mkdirSync(join(PACKAGE, "test-artifacts"), { recursive: true });
  const dir = mkdtempSync(join(PACKAGE, "test-artifacts", "host-"));
  const sdkFile = join(dir, "index.js");
  const hostFile = join(dir, "host.js");
  execFileSync(
    process.execPath,
    [join(PACKAGE, "scripts", "bundle.mjs"), "--outfile", sdkFile, "--host-outfile", hostFile],
    { stdio: "pipe" },
  );
  const sdk = readFileSync(sdkFile);
  const hostBundle = readFileSync(hostFile);
  const streams = new Set<ServerResponse>();
  let nextWindow = 1;
  let zIndex = 1;

  const state: Omit<RuntimeServer, "url" | "close" | "streams" | "emit" | "resync"> = {
    rpcs: [],
    patches: [],
    minted: [],
    windows: new Map(),
    firstTokenLifetimeS: 3600,
  };
  const mint = (wid: string, lifetimeS: number): string => {
    const token = jwt({
      wid,
      n: state.minted.length + 1,
      exp: Math.floor(Date.now() / 1000) + lifetimeS,
    });
    state.minted.push(token);
    return token;
  };
  const urlOf = (win: ServedWindow, token: string): string =>
    `/${win.view === "sdk" ? "sdk-app" : "raw-app"}?wid=${encodeURIComponent(win.window_uuid)}&t=${token}`;

  const server = createServer((req, res) => {
    void route(req, res).catch((error: unknown) => {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = req.method ?? "GET";
    const send = (status: number, type: string, body: string | Buffer): void => {
      res.writeHead(status, { "content-type": type }).end(body);
    };
    const json = (status: number, body: unknown): void =>
      send(status, "application/json", JSON.stringify(body));
    const p = url.pathname;
    if (p === "/") return send(200, "text/html; charset=utf-8", HOST_PAGE);
    if (p === "/sdk-app") return send(200, "text/html; charset=utf-8", SDK_APP_PAGE);
    if (p === "/raw-app") return send(200, "text/html; charset=utf-8", RAW_APP_PAGE);
    if (p === "/host.js") return send(200, "application/javascript", hostBundle);
    if (p === "/static/anna-apps/_sdk/latest/index.js") {
      // A5: the null-origin iframe imports the module with CORS.
      res.writeHead(200, {
        "content-type": "application/javascript",
        "access-control-allow-origin": "*",
      });
      res.end(sdk);
      return;
    }
    if (p === `${API}/events/stream` && method === "GET") {
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-store",
        connection: "keep-alive",
      });
      res.write(": open\n\n");
      streams.add(res);
      req.on("close", () => streams.delete(res));
      return;
    }
    const body = await readBody(req);
    if (p === `${API}/rpc` && method === "POST") {
      const seen = { token: req.headers["x-anna-app-token"], body } as RpcSeen;
      state.rpcs.push(seen);
      const { id, window_uuid: wid, ns, method: m } = seen.body;
      // `hang` is never answered: the page's own deadline must answer the app.
      if (m === "hang") return;
      const win = state.windows.get(wid);
      if (ns === "window" && m === "hello" && win !== undefined)
        return json(200, {
          id,
          ok: true,
          result: {
            window_uuid: wid,
            app_id: win.app_id,
            version_id: "dev",
            view_meta: { name: win.view, title: win.title },
            capabilities: {},
            entry_payload: null,
            runtime_state: {},
            geometry: win.geometry,
          },
        });
      return json(200, { id, ok: true, result: { echoed: `${ns}.${m}` } });
    }
    if (p === `${API}/windows` && method === "POST") {
      const fields = body as { view?: string; app_id?: string };
      const wid = `w${nextWindow++}`;
      const win: ServedWindow = {
        window_uuid: wid,
        view: fields.view ?? "raw",
        app_id: fields.app_id ?? APP_ID,
        title: `win ${wid}`,
        status: "active",
        geometry: { x: 0, y: 0, w: 300, h: 200 },
        z_index: zIndex++,
      };
      state.windows.set(wid, win);
      const token = mint(wid, state.firstTokenLifetimeS);
      return json(201, {
        window: win,
        token,
        expires_in: state.firstTokenLifetimeS,
        url: urlOf(win, token),
      });
    }
    if (p.startsWith(`${API}/windows/`)) {
      const wid = decodeURIComponent(p.slice(`${API}/windows/`.length));
      const win = state.windows.get(wid);
      if (win === undefined)
        return json(404, { error: { code: "not_found", message: `no live window ${wid}` } });
      if (method === "GET") {
        const token = mint(wid, 3600);
        return json(200, { window: win, token, expires_in: 3600, url: urlOf(win, token) });
      }
      if (method === "PATCH") {
        const patch = body as Record<string, unknown>;
        state.patches.push({ wid, body: patch });
        if (typeof patch["status"] === "string") win.status = patch["status"];
        if (typeof patch["geometry"] === "object")
          win.geometry = { ...win.geometry, ...(patch["geometry"] as Record<string, number>) };
        if (patch["focus"] === true) win.z_index = zIndex++;
        return json(200, { window: win });
      }
      if (method === "DELETE") {
        state.windows.delete(wid);
        return json(200, { ok: true });
      }
    }
    send(404, "text/plain", `no route ${method} ${p}`);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/`,
    streams: () => streams.size,
    emit(event: Record<string, unknown>, seq?: number) {
      const id = seq === undefined ? "" : `id: ${seq}\n`;
      const frame = `event: data_model/AnnaAppEvent\ndata: ${JSON.stringify({ type: "data_model/AnnaAppEvent", ...event })}\n${id}\n`;
      for (const stream of streams) stream.write(frame);
    },
    resync(data: Record<string, unknown>) {
      for (const stream of streams)
        stream.write(`event: anna.resync\ndata: ${JSON.stringify(data)}\n\n`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        server.closeAllConnections();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  });
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return text === "" ? undefined : (JSON.parse(text) as unknown);
}
