// /metrics: request counts and latencies by route template and status in the Prometheus text
// format, bounded series, and the node's queues and pools against their limits.
import { describe, expect, it } from "vitest";
import { manualClock } from "../../src/core/clock.js";
import { resolveConfig } from "../../src/core/config.js";
import { nullLogger } from "../../src/core/logger.js";
import { createApp } from "../../src/http/app.js";
import { RequestMetrics } from "../../src/http/request-log.js";
import { HTTP_SERIES_MAX, HttpMetrics, LATENCY_BUCKETS_S } from "../../src/ops/http-metrics.js";
import { SseStreams } from "@anna-ai/app-core/http";
import { metricsApp, renderNodeMetrics, sseStreamsGauge } from "../../src/ops/node-metrics.js";
import { PROMETHEUS_CONTENT_TYPE, renderFamilies } from "../../src/ops/prometheus-text.js";
import { memoryStores } from "../../src/stores/memory-stores.js";

/** `name{labels} value` lines as a map, comments dropped. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{.*\})?) (\S+)$/.exec(line);
    expect(m, `not an exposition line: ${line}`).not.toBeNull();
    out.set(m![1]!, Number(m![2]!.replace("+Inf", "Infinity")));
  }
  return out;
}

describe("the Prometheus text format", () => {
  it("writes HELP and TYPE once per family and escapes label values", () => {
    const text = renderFamilies([
      {
        name: "x_total",
        help: "a help\nline",
        type: "counter",
        samples: [{ labels: { path: 'a"b\\c\nd' }, value: 2 }],
      },
    ]);
    expect(text).toBe(
      '# HELP x_total a help\\nline\n# TYPE x_total counter\nx_total{path="a\\"b\\\\c\\nd"} 2\n',
    );
  });

  it("keeps histogram buckets cumulative with +Inf equal to the count", () => {
    const m = new HttpMetrics();
    m.observe("GET", "/a", 200, 0.003);
    m.observe("GET", "/a", 200, 0.2);
    m.observe("GET", "/a", 200, 60);
    const s = samples(renderFamilies(m.families()));
    const l = 'method="GET",route="/a",status="200"';
    expect(s.get(`anna_http_requests_total{${l}}`)).toBe(3);
    expect(s.get(`anna_http_request_duration_seconds_bucket{${l},le="0.005"}`)).toBe(1);
    expect(s.get(`anna_http_request_duration_seconds_bucket{${l},le="0.25"}`)).toBe(2);
    expect(
      s.get(`anna_http_request_duration_seconds_bucket{${l},le="${LATENCY_BUCKETS_S.at(-1)}"}`),
    ).toBe(2);
    expect(s.get(`anna_http_request_duration_seconds_bucket{${l},le="+Inf"}`)).toBe(3);
    expect(s.get(`anna_http_request_duration_seconds_count{${l}}`)).toBe(3);
    expect(s.get(`anna_http_request_duration_seconds_sum{${l}}`)).toBeCloseTo(60.203);
  });

  it("bounds the series: past the limit new routes count under route overflow, unknown methods as OTHER", () => {
    const m = new HttpMetrics();
    for (let i = 0; i < HTTP_SERIES_MAX + 50; i++) m.observe("GET", `/r${i}`, 200, 0.001);
    m.observe("BREW", "/r0", 200, 0.001);
    const s = samples(renderFamilies(m.families()));
    const counters = [...s.keys()].filter((k) => k.startsWith("anna_http_requests_total"));
    // The first HTTP_SERIES_MAX series, then one overflow series per method and status.
    expect(counters.filter((k) => !k.includes('route="overflow"'))).toHaveLength(HTTP_SERIES_MAX);
    expect(counters.filter((k) => k.includes('route="overflow"'))).toHaveLength(2);
    expect(s.get('anna_http_requests_total{method="GET",route="overflow",status="200"}')).toBe(50);
    expect(s.get('anna_http_requests_total{method="OTHER",route="overflow",status="200"}')).toBe(1);
  });
});

describe("request metrics from the app", () => {
  it("labels requests by the route template that answered, not the raw path, and 404s as unmatched", async () => {
    const metrics = new RequestMetrics();
    const app = createApp({
      stores: memoryStores(),
      clock: manualClock(),
      logger: nullLogger,
      config: resolveConfig({}),
      pingDatabase: () => Promise.resolve(),
      metrics,
    });
    const get = (p: string) =>
      Promise.resolve(
        app.request(`http://127.0.0.1:8080${p}`, { headers: { host: "127.0.0.1:8080" } }),
      );
    // Real event streams: three open, one of them closed again before the scrape.
    const streams = new SseStreams(
      { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
      { totalMax: 7, perRouteMax: 7 },
    );
    const clients = [1, 2, 3].map(() => streams.open("chat"));
    clients[0]!.end();
    await get("/healthz");
    for (const id of ["11", "22", "33"])
      expect((await get(`/api/v1/chat/conversations/${id}`)).status).toBe(401);
    await get("/api/v1/no/such/thing/8f2c");
    await get("/api/v1/no/such/thing/91aa");
    const text = renderNodeMetrics({
      requests: metrics,
      gauges: [sseStreamsGauge("chat", streams)],
      build: { version: "9.9.9", dialect: "sqlite" },
      startedAtMs: Date.UTC(2026, 0, 1),
    });
    const s = samples(text);
    expect(s.get('anna_http_requests_total{method="GET",route="/healthz",status="200"}')).toBe(1);
    expect(
      s.get(
        'anna_http_requests_total{method="GET",route="/api/v1/chat/conversations/:id",status="401"}',
      ),
    ).toBe(3);
    expect(s.get('anna_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(2);
    expect(text).not.toContain("8f2c");
    expect(s.get("anna_http_requests_in_flight")).toBe(0);
    expect(s.get('anna_sse_clients_open{stream="chat"}')).toBe(2);
    expect(s.get('anna_sse_clients_open_max{stream="chat"}')).toBe(7);
    for (const c of clients) c.end();
    expect(
      s.get(`anna_build_info{version="9.9.9",node_version="${process.version}",dialect="sqlite"}`),
    ).toBe(1);
    expect(s.get("process_start_time_seconds")).toBe(Date.UTC(2026, 0, 1) / 1000);
  });

  it("serves only GET /metrics, in the Prometheus content type", async () => {
    const app = metricsApp({
      requests: new RequestMetrics(),
      gauges: [],
      build: { version: "1", dialect: "sqlite" },
      startedAtMs: 0,
    });
    const res = await app.request("/metrics");
    expect(res.headers.get("content-type")).toBe(PROMETHEUS_CONTENT_TYPE);
    expect(await res.text()).toContain("# TYPE anna_http_requests_total counter");
    expect((await app.request("/readyz")).status).toBe(404);
  });
});
