// The request target exactly as the client sent it. The node adapter hands Hono a normalised URL
// (`/a/../b` and `/a/%2e%2e/b` resolved, escapes partly decoded); a server that checks paths
// itself (the bundle routes of the harness and of Nexus) needs the raw one, which node:http keeps
// on the incoming message.

interface RequestLike {
  env: unknown;
  req: { url: string };
}

/** The raw request target (path and query); the URL's own when not served over node:http. */
export function rawTargetOf(c: RequestLike): string {
  const incoming = (c.env as { incoming?: { url?: string } } | undefined)?.incoming;
  if (typeof incoming?.url === "string") return incoming.url;
  const url = new URL(c.req.url);
  return `${url.pathname}${url.search}`;
}

/** The raw path, still percent-encoded. */
export function rawPathOf(c: RequestLike): string {
  return rawTargetOf(c).split("?", 1)[0] ?? "/";
}
