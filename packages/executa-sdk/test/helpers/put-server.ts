// A local HTTP server standing in for presigned PUT URLs (APS files, host upload).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedPut {
  method: string;
  path: string;
  contentType: string | undefined;
  authorization: string | undefined;
  body: string;
}

export interface PutServer {
  url(path: string): string;
  readonly received: ReceivedPut[];
  close(): Promise<void>;
}

export async function startPutServer(): Promise<PutServer> {
  const received: ReceivedPut[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        method: req.method ?? "",
        path: req.url ?? "",
        contentType: req.headers["content-type"],
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.writeHead(200, { ETag: `"etag-${received.length}"` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
