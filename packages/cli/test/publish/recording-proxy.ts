// A recording proxy in front of a real Nexus, for checking what our CLI sends to the app
// registry byte for byte (paths, query, If-Match, multipart fields and their Blob names, JSON
// bodies, request order): every request is forwarded unchanged, and those under
// /api/v1/developer/apps and /api/v1/apps are kept, their bodies parsed.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  json: unknown;
  form?: Record<string, { text: string; type?: string; name?: string }>;
  status: number;
}

export interface RecordingProxy {
  url: string;
  seen: Seen[];
  /** The app-registry requests as `METHOD /path` (no query). */
  calls(): string[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "keep-alive",
]);

export async function recordingProxy(upstream: string): Promise<RecordingProxy> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      void (async () => {
        const url = new URL(req.url ?? "/", "http://proxy");
        const r = await fetch(upstream + (req.url ?? "/"), {
          method: req.method ?? "GET",
          headers: Object.fromEntries(
            Object.entries(req.headers).filter(([k]) => !HOP_BY_HOP.has(k)),
          ) as Record<string, string>,
          ...(raw.length > 0 ? { body: raw } : {}),
        });
        const body = Buffer.from(await r.arrayBuffer());
        if (/^\/api\/v1\/(developer\/)?apps(\/|$)/.test(url.pathname)) {
          seen.push(await record(req, url, raw, r.status));
        }
        const headers = Object.fromEntries(
          [...r.headers].filter(([k]) => !HOP_BY_HOP.has(k) && k !== "content-encoding"),
        );
        res.writeHead(r.status, headers);
        res.end(body);
      })().catch((e: unknown) => {
        res.writeHead(502);
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    calls: () => seen.map((q) => `${q.method} ${q.path}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function record(req: IncomingMessage, url: URL, raw: Buffer, status: number): Promise<Seen> {
  const s: Seen = {
    method: req.method ?? "",
    path: url.pathname,
    query: url.searchParams,
    headers: req.headers,
    json: null,
    status,
  };
  const type = req.headers["content-type"] ?? "";
  if (type.startsWith("multipart/form-data")) {
    const form = await new Request("http://proxy", {
      method: "POST",
      headers: { "content-type": type },
      body: raw,
    }).formData();
    s.form = {};
    for (const [k, v] of form) {
      s.form[k] =
        typeof v === "string" ? { text: v } : { type: v.type, name: v.name, text: await v.text() };
    }
  } else if (raw.length > 0) s.json = JSON.parse(raw.toString("utf8")) as unknown;
  return s;
}
