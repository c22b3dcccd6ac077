// A download server on 127.0.0.1 for install tests: serves buffers by path and can misbehave the
// ways a real one does — a Content-Length that lies, a connection cut mid-body, a stall.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Served {
  body: Buffer;
  /** Send this many bytes of the body, then destroy the socket. */
  cutAfter?: number;
  /** Send the headers and this many bytes, then say nothing more. */
  stallAfter?: number;
  status?: number;
}

export interface FileServer {
  url(path: string): string;
  serve(path: string, file: Served | Buffer): void;
  /** GETs received per path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startFileServer(): Promise<FileServer> {
  const files = new Map<string, Served>();
  const hits = new Map<string, number>();
  const open = new Set<ServerResponse>();
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const f = files.get(path);
    if (req.method !== "GET" || f === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(f.status ?? 200, {
      "content-type": "application/octet-stream",
      "content-length": String(f.body.length),
    });
    if (f.cutAfter !== undefined) {
      res.write(f.body.subarray(0, f.cutAfter), () => res.destroy());
      return;
    }
    if (f.stallAfter !== undefined) {
      open.add(res);
      res.write(f.body.subarray(0, f.stallAfter));
      return;
    }
    res.end(f.body);
  };
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (p) => `http://127.0.0.1:${port}${p}`,
    serve: (p, file) => files.set(p, Buffer.isBuffer(file) ? { body: file } : file),
    hits,
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
