// A bare host page for the dashboard's iframe host (`bridge.js`, `frames.js` over the window host
// of @anna-ai/app-runtime/host) on its own: the modules as served, the real SDK bundle, a tiny app
// page for the iframes, and a fake harness that speaks the real rpc and windows wire and records
// what it was sent. Real HTTP on 127.0.0.1 port 0, closed when the test ends.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";
import { dashboardAsset } from "../../src/dev/dashboard-page.js";

export interface RpcSeen {
  token: string | undefined;
  body: { id: string; window_uuid: string; ns: string; method: string; args: unknown };
}

export interface IframeHost {
  url: string;
  /** Every rpc the page forwarded, in order. */
  rpcs: RpcSeen[];
  /** Every windows-API PATCH the page sent, in order. */
  patches: Array<{ wid: string; body: Record<string, unknown> }>;
}

const HOST_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>iframe host</title></head>
<body>
<div id="frames" style="position:relative;width:900px;height:600px"></div>
<nav id="dock"></nav><div id="calls"></div><div id="events"></div>
<script type="module">
  import * as frames from "/dev/frames.js";
  import * as bridge from "/dev/bridge.js";
  frames.initDesk({ frames: document.getElementById("frames"), dock: document.getElementById("dock"),
    views: [{ name: "main", min_size: { w: 200, h: 150 } }] });
  bridge.startBridge(frames.frameOf);
  window.desk = { frames, bridge };
  document.body.dataset.ready = "true";
</script>
</body></html>`;

/** The app in each iframe: keeps what the parent posts, sends what the test asks it to. */
const APP_PAGE = `<!doctype html><html><head><meta charset="utf-8"></head><body>
<script>
  window.received = [];
  window.addEventListener("message", (e) => window.received.push(e.data));
  window.send = (message) => parent.postMessage(message, "*");
</script></body></html>`;

const SDK = createRequire(import.meta.url).resolve("@anna-ai/app-runtime/bundle");
const WINDOWS = "/api/v1/anna-apps/runtime/windows/";

export async function startIframeHost(): Promise<IframeHost> {
  const rpcs: RpcSeen[] = [];
  const patches: IframeHost["patches"] = [];
  const server = createServer((req, res) => {
    void route(req, res).catch(() => res.writeHead(500).end());
  });
  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const send = (type: string, body: string | Buffer): void => {
      res.writeHead(200, { "content-type": type }).end(body);
    };
    if (url.pathname === "/") return send("text/html", HOST_PAGE);
    if (url.pathname === "/app") return send("text/html", APP_PAGE);
    if (url.pathname === "/static/anna-apps/_sdk/latest/index.js") {
      return send("application/javascript", readFileSync(SDK));
    }
    const asset = dashboardAsset(url.pathname);
    if (asset !== undefined) return send(asset.contentType, asset.body);
    const body = await readBody(req);
    if (url.pathname === "/api/v1/anna-apps/runtime/rpc") {
      const seen = {
        token: req.headers["x-anna-app-token"] as string | undefined,
        body,
      } as RpcSeen;
      rpcs.push(seen);
      // `hang` is never answered: the page's own deadline must answer the app.
      if (seen.body.method === "hang") return;
      return send(
        "application/json",
        JSON.stringify({ id: seen.body.id, ok: true, result: { echoed: seen.body.method } }),
      );
    }
    if (url.pathname.startsWith(WINDOWS) && req.method === "PATCH") {
      const wid = decodeURIComponent(url.pathname.slice(WINDOWS.length));
      const patch = body as Record<string, unknown>;
      patches.push({ wid, body: patch });
      const status = typeof patch["status"] === "string" ? patch["status"] : "active";
      return send(
        "application/json",
        JSON.stringify({
          window: { window_uuid: wid, status, geometry: patch["geometry"] ?? {}, z_index: 9 },
        }),
      );
    }
    if (url.pathname.startsWith(WINDOWS) && req.method === "GET") {
      const wid = decodeURIComponent(url.pathname.slice(WINDOWS.length));
      return send(
        "application/json",
        JSON.stringify({
          window: { window_uuid: wid, status: "active" },
          url: `/app?wid=${wid}&fresh=1`,
        }),
      );
    }
    res.writeHead(404).end();
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, rpcs, patches };
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return text === "" ? undefined : (JSON.parse(text) as unknown);
}
