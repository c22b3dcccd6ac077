// The HAProxy configuration the cluster test runs, and docs/deploy.md shows: round robin over
// the nodes, no stickiness (any node serves any request), a health check on /readyz so a dead
// or starting node gets no traffic, and a response header naming the node that answered (the
// test's per-node figures; harmless in production).
export interface HaproxyConfigInput {
  /** `address:port` of the frontend. */
  bind: string;
  servers: { name: string; address: string }[];
}

export function haproxyConfig(input: HaproxyConfigInput): string {
  return [
    "global",
    "  maxconn 4096",
    "",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 60s",
    // Long enough for a chat turn's or an app's event stream between two frames.
    "  timeout server 300s",
    "  timeout http-keep-alive 10s",
    // A node that refuses the connection (killed, restarting): try another one.
    "  option redispatch",
    "  retries 2",
    "",
    "frontend anna",
    `  bind ${input.bind}`,
    "  option forwardfor",
    "  default_backend nexus",
    "",
    "backend nexus",
    "  balance roundrobin",
    "  option httpchk GET /readyz",
    "  http-check expect status 200",
    "  default-server inter 500ms fall 2 rise 2",
    "  http-response set-header X-Anna-Node %s",
    ...input.servers.map((s) => `  server ${s.name} ${s.address} check`),
    "",
  ].join("\n");
}
