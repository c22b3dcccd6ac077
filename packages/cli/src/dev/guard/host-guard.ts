// DNS rebinding: a page on `evil.example` whose name an attacker re-points at 127.0.0.1 is
// same-origin with itself, so its requests carry no foreign Origin, yet they reach this port.
// What it cannot forge is the Host header: the browser sends the name it resolved. The harness
// therefore answers only the names of its own loopback address, before any route runs.
import type { IncomingMessage } from "node:http";
import { HttpError } from "../http-util.js";

/** The loopback names the harness answers to, with its port: `127.0.0.1`, `localhost`, `[::1]`. */
export function allowedHosts(port: number): ReadonlySet<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/**
 * Throws 421 `misdirected_host` unless the request's Host is one of `allowed`. Names are
 * case-insensitive (RFC 9110); a missing Host (HTTP/1.0) is refused too: no name, no proof.
 */
export function checkHost(req: IncomingMessage, allowed: ReadonlySet<string>): void {
  const host = req.headers.host?.toLowerCase();
  if (host !== undefined && allowed.has(host)) return;
  const [first] = allowed;
  throw new HttpError(
    421,
    "misdirected_host",
    `this harness answers requests for ${[...allowed].join(", ")}, not Host ${host === undefined ? "(none)" : JSON.stringify(host)}; open http://${first ?? "127.0.0.1"}/`,
  );
}
