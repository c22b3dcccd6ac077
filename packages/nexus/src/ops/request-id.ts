// Every request carries one id from the load balancer (or the first node it reaches) through
// each log line and error body, so one request can be followed across nodes.
import { randomUUID } from "node:crypto";

export const REQUEST_ID_HEADER = "X-Request-Id";
/** Long enough for a UUID, a ULID or HAProxy's `%{+X}o\ %ci:%cp_%fi:%fp_%Ts_%rt:%pid`. */
export const REQUEST_ID_MAX_CHARS = 128;
// Letters, digits and a few separators: nothing that could break a log line or a header.
const WELL_FORMED = new RegExp(`^[A-Za-z0-9._:@/+=-]{1,${REQUEST_ID_MAX_CHARS}}$`);

/** The caller's id when it is well-formed and bounded; otherwise a new UUID. */
export function requestIdFor(incoming: string | undefined): string {
  return incoming !== undefined && WELL_FORMED.test(incoming) ? incoming : randomUUID();
}
