// `start`'s operations flags: the log format, and the metrics listener (off unless asked for).
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { LogFormat } from "../core/logger.js";
import { metricsApp, type NodeMetricsSources } from "../ops/node-metrics.js";
import { type Flags, type FlagValues, parsePort } from "./args.js";
import { usageError } from "./exit.js";
import type { CliIo } from "./io.js";

const DEFAULT_METRICS_HOST = "127.0.0.1";

export const LOG_FLAGS: Flags = {
  "log-format": {
    type: "string",
    value: "<json|pretty>",
    description:
      "log lines on stderr as JSON objects or readable text (env ANNA_LOG_FORMAT; default pretty on a terminal, json otherwise)",
  },
};

export const METRICS_FLAGS: Flags = {
  "metrics-port": {
    type: "string",
    value: "<n>",
    description:
      "serve Prometheus metrics at GET /metrics on this port, apart from the public one (env ANNA_METRICS_PORT; default off; 0 picks a free one)",
  },
  "metrics-host": {
    type: "string",
    value: "<addr>",
    description: `address the metrics port binds (env ANNA_METRICS_HOST; default ${DEFAULT_METRICS_HOST}: only this machine)`,
  },
};

export function logFormatFrom(flags: FlagValues, io: CliIo): LogFormat {
  const value =
    (flags["log-format"] as string | undefined) ?? (io.env.ANNA_LOG_FORMAT || undefined);
  if (value === undefined) return io.stderrIsTty === true ? "pretty" : "json";
  if (value !== "json" && value !== "pretty") {
    throw usageError(`--log-format is json or pretty (got '${value}')`, "start");
  }
  return value;
}

export interface MetricsListen {
  port: number;
  hostname: string;
}

export function metricsListenFrom(
  flags: FlagValues,
  env: NodeJS.ProcessEnv,
): MetricsListen | undefined {
  const port =
    (flags["metrics-port"] as string | undefined) ?? (env.ANNA_METRICS_PORT || undefined);
  const host =
    (flags["metrics-host"] as string | undefined) ?? (env.ANNA_METRICS_HOST || undefined);
  if (port === undefined) {
    if (host !== undefined) throw usageError("--metrics-host needs --metrics-port", "start");
    return undefined;
  }
  return {
    port: parsePort(port, "start", "--metrics-port"),
    hostname: host ?? DEFAULT_METRICS_HOST,
  };
}

/** Listens for GET /metrics; rejects with a message naming the address when it cannot bind. */
export async function startMetricsListener(
  listen: MetricsListen,
  sources: NodeMetricsSources,
): Promise<{ url: string; close(): Promise<void> }> {
  const app = metricsApp(sources);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: listen.port, hostname: listen.hostname }, () =>
      resolve(s),
    );
    s.once("error", (err) =>
      reject(
        new Error(
          `cannot listen for metrics on ${listen.hostname}:${listen.port}: ${err.message}`,
          {
            cause: err,
          },
        ),
      ),
    );
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ("closeAllConnections" in server) server.closeAllConnections();
      }),
  };
}
