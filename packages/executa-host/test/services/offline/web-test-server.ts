// A real HTTP server on 127.0.0.1 for the web service tests: each route answers with a status,
// headers and body, a redirect, or never (to reach a timeout). Closed by the test that opened it.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

export type Route =
  | { status?: number; type?: string; body: string | Buffer; headers?: Record<string, string> }
  | { redirect: string; status?: number }
  | { hang: true }
  /** Write the answer yourself (a body that trickles, never ends, …); closed with the server. */
  | { handle: (res: ServerResponse) => void };

export interface WebTestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  url(path: string): string;
  /** How many requests each path got. */
  hits: Map<string, number>;
}

export async function startWebServer(routes: Record<string, Route>): Promise<WebTestServer> {
  const hits = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (route === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end("no such page");
    } else if ("hang" in route) {
      hanging.add(res);
    } else if ("handle" in route) {
      hanging.add(res);
      route.handle(res);
    } else if ("redirect" in route) {
      res.writeHead(route.status ?? 302, { location: route.redirect }).end();
    } else {
      res
        .writeHead(route.status ?? 200, {
          "content-type": route.type ?? "text/html; charset=utf-8",
          ...route.headers,
        })
        .end(route.body);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, url: (path) => `${origin}${path}`, hits };
}
