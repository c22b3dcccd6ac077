// Server-sent events as providers write them: `event:` (when named) and one `data:` line per
// event, a blank line after each. A reply with `restAfterMs` (or `restAfter`) is paced: the wire calls
// `holdRest` after its first text delta, and every later event (and the end) waits that long,
// as a real model sends its first token quickly and the rest as it generates them.
import type { ServerResponse } from "node:http";

/** Events held back per paced response; they are the scripted reply's own, so finite. */
const held = new WeakMap<ServerResponse, { frames: string[]; ended: boolean }>();

export function startSse(res: ServerResponse): void {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
}

export function writeEvent(res: ServerResponse, data: unknown, event?: string): void {
  const body = typeof data === "string" ? data : JSON.stringify(data);
  const frame = `${event !== undefined ? `event: ${event}\n` : ""}data: ${body}\n\n`;
  const pending = held.get(res);
  if (pending !== undefined) pending.frames.push(frame);
  else res.write(frame);
}

/**
 * From now on `writeEvent` and `endSse` on `res` take effect `restAfterMs` later, or after
 * `restAfter` settles (no-op without either).
 */
export function holdRest(
  res: ServerResponse,
  pace: { restAfterMs?: number | undefined; restAfter?: PromiseLike<unknown> | undefined },
): void {
  const delayMs = pace.restAfterMs ?? 0;
  if ((delayMs <= 0 && pace.restAfter === undefined) || held.has(res)) return;
  const pending = { frames: [] as string[], ended: false };
  held.set(res, pending);
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    held.delete(res);
    if (res.destroyed) return;
    for (const frame of pending.frames) res.write(frame);
    if (pending.ended) res.end();
  };
  const wait = () => {
    if (res.destroyed) return;
    if (delayMs > 0) timer = setTimeout(flush, delayMs);
    else flush();
  };
  if (pace.restAfter === undefined) wait();
  else Promise.resolve(pace.restAfter).then(wait, wait);
  // A client that hangs up (or the fake closing) ends the wait; nothing is left to send to.
  res.once("close", () => clearTimeout(timer));
}

/** Ends a streamed answer, after the held events when the reply is paced. */
export function endSse(res: ServerResponse): void {
  const pending = held.get(res);
  if (pending !== undefined) pending.ended = true;
  else res.end();
}
