// What /metrics shows of one node: its HTTP traffic (request-log.ts counts it), the sizes of its
// bounded queues and pools against their limits, and which build it runs. Read at scrape time
// from the live objects, so nothing is kept twice.
import { Hono } from "hono";
import type { RequestMetrics } from "../http/request-log.js";
import { type MetricFamily, PROMETHEUS_CONTENT_TYPE, renderFamilies } from "./prometheus-text.js";

/** A bounded thing's current size and its limit (`anna_<name>` and `anna_<name>_max`). */
export interface BoundedGauge {
  name: string;
  help: string;
  labels?: Record<string, string>;
  read(): { value: number; max: number };
}

/** The open event streams of one SseStreams (app windows' or chat's), against its limit. */
export function sseStreamsGauge(
  stream: string,
  streams: { readonly size: number; readonly capacity: number },
): BoundedGauge {
  return {
    name: "sse_clients_open",
    help: "Server-sent event streams open on this node, by stream kind.",
    labels: { stream },
    read: () => ({ value: streams.size, max: streams.capacity }),
  };
}

export interface NodeMetricsSources {
  requests: RequestMetrics;
  gauges: readonly BoundedGauge[];
  /** Families of a part with counters of its own (the event bus), read at scrape time. */
  families?: () => readonly MetricFamily[];
  build: { version: string; dialect: string };
  /** Process start, epoch ms. */
  startedAtMs: number;
}

export function renderNodeMetrics(src: NodeMetricsSources): string {
  const families: MetricFamily[] = [
    {
      name: "anna_build_info",
      help: "The Nexus build this node runs (always 1).",
      type: "gauge",
      samples: [
        {
          labels: {
            version: src.build.version,
            node_version: process.version,
            dialect: src.build.dialect,
          },
          value: 1,
        },
      ],
    },
    {
      name: "anna_http_requests_in_flight",
      help: "HTTP requests received and not yet answered.",
      type: "gauge",
      samples: [{ value: src.requests.requestsInFlight }],
    },
    ...src.requests.http.families(),
  ];
  // Gauges sharing a name (one per label set) form one family.
  const byName = new Map<string, BoundedGauge[]>();
  for (const g of src.gauges) byName.set(g.name, [...(byName.get(g.name) ?? []), g]);
  for (const [name, gauges] of byName) {
    const readings = gauges.map((g) => ({ g, r: g.read() }));
    families.push(
      {
        name: `anna_${name}`,
        help: gauges[0]!.help,
        type: "gauge",
        samples: readings.map(({ g, r }) => ({ labels: g.labels, value: r.value })),
      },
      {
        name: `anna_${name}_max`,
        help: `The limit of anna_${name}.`,
        type: "gauge",
        samples: readings.map(({ g, r }) => ({ labels: g.labels, value: r.max })),
      },
    );
  }
  if (src.families) families.push(...src.families());
  const mem = process.memoryUsage();
  families.push(
    {
      name: "process_start_time_seconds",
      help: "When this process started, in seconds since the epoch.",
      type: "gauge",
      samples: [{ value: Math.floor(src.startedAtMs / 1000) }],
    },
    {
      name: "process_resident_memory_bytes",
      help: "Resident memory of this process.",
      type: "gauge",
      samples: [{ value: mem.rss }],
    },
    {
      name: "nodejs_heap_used_bytes",
      help: "V8 heap in use.",
      type: "gauge",
      samples: [{ value: mem.heapUsed }],
    },
  );
  return renderFamilies(families);
}

/**
 * The metrics listener's app: GET /metrics and nothing else. It is served on its own port
 * (`--metrics-port`, loopback unless `--metrics-host` says otherwise), never on the public one,
 * so what a node runs and how busy it is stays with whoever can reach that port.
 */
export function metricsApp(src: NodeMetricsSources): Hono {
  const app = new Hono();
  app.get("/metrics", (c) =>
    c.body(renderNodeMetrics(src), 200, { "content-type": PROMETHEUS_CONTENT_TYPE }),
  );
  app.notFound((c) => c.text("this port serves GET /metrics only\n", 404));
  return app;
}
