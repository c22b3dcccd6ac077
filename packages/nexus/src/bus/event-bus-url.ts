// The `--event-bus` / EVENT_BUS value: one or more `nats://[user:pass@]host[:port]` separated by
// commas (the servers of one NATS cluster). Parsed once at start so a typo is a one-line usage
// error, and so what gets logged never holds the credentials.

export const DEFAULT_NATS_PORT = 4222;

export interface NatsTarget {
  /** `host:port` for each server, as nats.js takes them. */
  servers: string[];
  /** From the URL's userinfo: `user:pass`, or a lone token. */
  auth?: { user: string; pass: string } | { token: string };
  /** The servers without credentials, for logs and errors. */
  description: string;
}

/** A bad event bus URL or subject prefix: a usage error at start. */
export class EventBusConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EventBusConfigError";
  }
}

export function parseEventBusUrl(value: string): NatsTarget {
  const parts = value
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  if (parts.length === 0) {
    throw new EventBusConfigError(`event bus URL is empty; expected nats://host:port`);
  }
  const servers: string[] = [];
  let auth: NatsTarget["auth"];
  for (const part of parts) {
    let url: URL;
    try {
      url = new URL(part);
    } catch {
      throw new EventBusConfigError(
        `event bus URL '${redact(part)}' is not a URL; expected nats://host:port`,
      );
    }
    if (url.protocol !== "nats:") {
      throw new EventBusConfigError(
        `event bus URL '${redact(part)}' has scheme '${url.protocol}'; expected nats://host:port`,
      );
    }
    if (url.hostname === "" || (url.pathname !== "" && url.pathname !== "/") || url.search !== "") {
      throw new EventBusConfigError(
        `event bus URL '${redact(part)}' must be just nats://host:port (no path or query)`,
      );
    }
    const port = url.port === "" ? DEFAULT_NATS_PORT : Number(url.port);
    servers.push(`${url.hostname}:${port}`);
    if (url.username !== "") {
      const user = decodeURIComponent(url.username);
      auth =
        url.password === "" ? { token: user } : { user, pass: decodeURIComponent(url.password) };
    }
  }
  return {
    servers,
    ...(auth === undefined ? {} : { auth }),
    description: servers.map((s) => `nats://${s}`).join(","),
  };
}

/** The value as given, with any userinfo replaced: errors must not print a password. */
function redact(part: string): string {
  return part.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, "$1***@");
}
