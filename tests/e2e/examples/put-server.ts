// A stand-in for presigned PUT URLs (files/upload_begin, host/uploadFile negotiate): it keeps
// what plugins upload and answers like object storage, with an ETag.

import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface StoredUpload {
  path: string;
  contentType: string | undefined;
  body: Buffer;
  etag: string;
}

export interface PutServer {
  /** URL for an object key; PUT there stores it. */
  urlFor(key: string): string;
  uploads: Map<string, StoredUpload>;
  close(): Promise<void>;
}

export async function startPutServer(): Promise<PutServer> {
  const uploads = new Map<string, StoredUpload>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "PUT") {
        res.writeHead(405).end();
        return;
      }
      const body = Buffer.concat(chunks);
      const etag = `"${createHash("md5").update(body).digest("hex")}"`;
      const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
      uploads.set(path, { path, contentType: req.headers["content-type"], body, etag });
      res.writeHead(200, { ETag: etag }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    urlFor: (key) => `http://127.0.0.1:${port}/${key}`,
    uploads,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
