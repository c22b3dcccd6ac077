// Every request of the cluster test: one timeout each (a request that never answers is a
// failure of its own kind, "timeout", never a hang), failures sorted by kind, and the node that
// answered taken from HAProxy's X-Anna-Node header (or the name of the node called directly).
export const REQUEST_TIMEOUT_MS = Number(process.env.CLUSTER_REQUEST_TIMEOUT_MS || 10_000);

export interface Reply {
  status: number;
  body: unknown;
  node: string;
  ms: number;
  headers: Headers;
}

/** A request that got no HTTP answer: the socket was reset or refused, or the timeout passed. */
export class NoReply extends Error {
  constructor(
    readonly kind: string,
    readonly node: string,
    readonly ms: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Target {
  /** "lb" through HAProxy, or a node's name when called directly. */
  name: string;
  url: string;
}

export function failureKind(err: unknown): string {
  const e = err as { name?: string; cause?: { code?: string; name?: string } };
  if (e.name === "TimeoutError" || e.cause?.name === "TimeoutError") return "timeout";
  const code = e.cause?.code ?? "";
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET" || code === "EPIPE") return "reset";
  if (code === "ECONNREFUSED") return "refused";
  return code ? code.toLowerCase() : "network";
}

export async function send(
  t: Target,
  method: string,
  path: string,
  opts: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  const start = performance.now();
  try {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      // not JSON (HAProxy's own 502/503 pages): keep the text
    }
    const node = t.name === "lb" ? (res.headers.get("x-anna-node") ?? "haproxy") : t.name;
    return {
      status: res.status,
      body: parsed,
      node,
      ms: performance.now() - start,
      headers: res.headers,
    };
  } catch (err) {
    const ms = performance.now() - start;
    const node = t.name === "lb" ? "(no reply via haproxy)" : t.name;
    throw new NoReply(failureKind(err), node, ms, `${method} ${path}: ${String(err)}`);
  }
}

/** Frames of a text/event-stream body, as they arrive. */
export async function* sseFrames(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<{ id?: string; event?: string; data?: string }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame: { id?: string; event?: string; data?: string } = {};
        for (const line of buffer.slice(0, end).split("\n")) {
          const i = line.indexOf(": ");
          if (i < 0) continue;
          const [k, v] = [line.slice(0, i), line.slice(i + 2)];
          if (k === "id" || k === "event" || k === "data") frame[k] = v;
        }
        buffer = buffer.slice(end + 2);
        yield frame;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
