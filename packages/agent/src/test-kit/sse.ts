// Server-sent events as providers write them: `event:` (when named) and one `data:` line per
// event, a blank line after each.
import type { ServerResponse } from "node:http";

export function startSse(res: ServerResponse): void {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
}

export function writeEvent(res: ServerResponse, data: unknown, event?: string): void {
  const body = typeof data === "string" ? data : JSON.stringify(data);
  res.write(`${event !== undefined ? `event: ${event}\n` : ""}data: ${body}\n\n`);
}
