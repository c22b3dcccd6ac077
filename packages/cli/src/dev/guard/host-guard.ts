// DNS rebinding: a page on `evil.example` whose name an attacker re-points at 127.0.0.1 is
// same-origin with itself, so its requests carry no foreign Origin, yet they reach this port.
// What it cannot forge is the Host header: the browser sends the name it resolved. The harness
// therefore answers only the names of its own loopback address, before any route runs.
import type { MiddlewareHandler } from "hono";
import { HttpError } from "@anna-ai/app-core/http";

/** The loopback names the harness answers to, with its port: `127.0.0.1`, `localhost`, `[::1]`. */
export function allowedHosts(port: number): ReadonlySet<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/**
 * Throws 421 `misdirected_host` unless `host` is one of `allowed`. Names are case-insensitive
 * (RFC 9110); a missing Host (HTTP/1.0) is refused too: no name, no proof.
 */
export function checkHost(hostHeader: string | undefined, allowed: ReadonlySet<string>): void {
  const host = hostHeader?.toLowerCase();
  if (host !== undefined && allowed.has(host)) return;
  const [first] = allowed;
  throw new HttpError(
    "misdirected_host",
    `this harness answers requests for ${[...allowed].join(", ")}, not Host ${host === undefined ? "(none)" : JSON.stringify(host)}; open http://${first ?? "127.0.0.1"}/`,
  );
}

/** The guard as the first middleware; the names are known once the port is. */
export function hostGuard(allowed: () => ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    checkHost(c.req.header("host"), allowed());
    await next();
  };
}
