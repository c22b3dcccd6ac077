// A tiny HTTP server on 127.0.0.1 that answers from a script, for what a real Nexus never does
// on demand (a 500 then a 200, RFC 8628's slow_down, a string `detail`). Records every request.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

export interface ScriptedServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** `answer` gets each request (and how many came before it) and says what to send back. */
export async function scriptedServer(
  answer: (req: SeenRequest, index: number) => Answer | Promise<Answer>,
): Promise<ScriptedServer> {
  const seen: SeenRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r: SeenRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      seen.push(r);
      void Promise.resolve(answer(r, seen.length - 1)).then((a) => {
        const text =
          a.body === undefined ? "" : typeof a.body === "string" ? a.body : JSON.stringify(a.body);
        res.writeHead(a.status, { "content-type": "application/json", ...a.headers });
        res.end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
