// Request counts and latencies by method, route template and status, kept in memory per node
// (Prometheus scrapes each node and sums). Labels come from the route the request matched, never
// from its raw path, so a scanner's random URLs cannot grow the series.
import type { Labels, MetricFamily, Sample } from "./prometheus-text.js";

/** Upper bounds in seconds: API calls are milliseconds, uploads and turns' first bytes longer. */
export const LATENCY_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
/** Series beyond this are counted under route "overflow" (a bound on the memory they take). */
export const HTTP_SERIES_MAX = 2_000;
/** The route label of a request no route answered (404s, refused Host headers). */
export const UNMATCHED_ROUTE = "unmatched";
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

interface Series {
  labels: Labels;
  count: number;
  sumS: number;
  /** Count per bucket (not cumulative; rendering sums them). */
  buckets: number[];
}

export class HttpMetrics {
  private readonly series = new Map<string, Series>();

  observe(method: string, route: string, status: number, seconds: number): void {
    const m = KNOWN_METHODS.has(method) ? method : "OTHER";
    let key = `${m} ${status} ${route}`;
    let s = this.series.get(key);
    if (s === undefined) {
      if (this.series.size >= HTTP_SERIES_MAX) {
        route = "overflow";
        key = `${m} ${status} ${route}`;
        s = this.series.get(key);
      }
      if (s === undefined) {
        s = {
          labels: { method: m, route, status: String(status) },
          count: 0,
          sumS: 0,
          buckets: LATENCY_BUCKETS_S.map(() => 0),
        };
        this.series.set(key, s);
      }
    }
    s.count += 1;
    s.sumS += seconds;
    const i = LATENCY_BUCKETS_S.findIndex((b) => seconds <= b);
    if (i >= 0) s.buckets[i]! += 1;
  }

  families(): MetricFamily[] {
    const all = [...this.series.values()];
    const counts: Sample[] = all.map((s) => ({ labels: s.labels, value: s.count }));
    const latency: Sample[] = [];
    for (const s of all) {
      let cumulative = 0;
      LATENCY_BUCKETS_S.forEach((le, i) => {
        cumulative += s.buckets[i]!;
        latency.push({
          suffix: "_bucket",
          labels: { ...s.labels, le: String(le) },
          value: cumulative,
        });
      });
      latency.push({ suffix: "_bucket", labels: { ...s.labels, le: "+Inf" }, value: s.count });
      latency.push({ suffix: "_sum", labels: s.labels, value: s.sumS });
      latency.push({ suffix: "_count", labels: s.labels, value: s.count });
    }
    return [
      {
        name: "anna_http_requests_total",
        help: "HTTP requests answered, by method, route template and status.",
        type: "counter",
        samples: counts,
      },
      {
        name: "anna_http_request_duration_seconds",
        help: "Time from the request's arrival to its response headers (an event stream's first byte), by method, route template and status.",
        type: "histogram",
        samples: latency,
      },
    ];
  }
}
