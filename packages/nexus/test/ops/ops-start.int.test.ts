// `anna-nexus start`'s operations flags as a real process: the metrics port apart from the
// public one, readable log lines, and refusals for bad values.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROMETHEUS_CONTENT_TYPE } from "../../src/ops/prometheus-text.js";
import { startNexus } from "../helpers/process.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const SLOW = { timeout: 120_000 };

describe("anna-nexus start with operations flags (real process)", () => {
  it(
    "serves /metrics on its own loopback port, never on the public one, and logs pretty lines",
    SLOW,
    async () => {
      const data = mkdtempSync(join(tmpdir(), "anna-nexus-ops-"));
      dirs.push(data);
      const p = startNexus([
        "start",
        "--port",
        "0",
        "--data",
        data,
        "--metrics-port",
        "0",
        "--log-format",
        "pretty",
      ]);
      try {
        const metricsUrl = (
          await p.waitFor(/INFO {2}metrics listening url=(http:\/\/127\.0\.0\.1:\d+\/metrics)/)
        )[1]!;
        const url = (await p.waitFor(/INFO {2}listening url=(http:\/\/[^ ]+)/))[1]!;
        const probe = await fetch(`${url}/readyz`, { headers: { "x-request-id": "probe-1" } });
        expect(probe.status).toBe(200);
        await p.waitFor(
          /INFO {2}request request_id=probe-1 method=GET path=\/readyz status=200 duration_ms=\d+/,
        );

        const res = await fetch(metricsUrl);
        expect(res.headers.get("content-type")).toBe(PROMETHEUS_CONTENT_TYPE);
        const text = await res.text();
        expect(text).toContain(
          'anna_http_requests_total{method="GET",route="/readyz",status="200"} 1',
        );
        expect(text).toMatch(
          /^anna_build_info\{version="0\.1\.0",node_version="v\d+[^"]*",dialect="sqlite"\} 1$/m,
        );
        for (const line of [
          'anna_sse_clients_open{stream="app_events"} 0',
          'anna_sse_clients_open{stream="chat"} 0',
          "anna_plugin_processes 0",
          "anna_chat_turns_running 0",
        ]) {
          expect(text).toContain(line);
        }
        expect(text).toMatch(/^anna_plugin_processes_max \d+$/m);
        // The public port does not expose them (the dashboard answers its own page there).
        expect(await (await fetch(`${url}/metrics`)).text()).not.toContain(
          "anna_http_requests_total",
        );
        // No JSON lines when pretty was asked for.
        expect(p.stderr()).not.toMatch(/^\{"time"/m);
      } finally {
        p.signal("SIGTERM");
        expect(await p.exited()).toBe(0);
      }
    },
  );

  it("refuses a log format or metrics host it cannot use, in one line", SLOW, async () => {
    for (const [args, message] of [
      [["--log-format", "xml"], "--log-format is json or pretty (got 'xml')"],
      [["--metrics-host", "0.0.0.0"], "--metrics-host needs --metrics-port"],
      [["--metrics-port", "http"], "--metrics-port must be a number from 0 to 65535 (got 'http')"],
    ] as const) {
      const p = startNexus(["start", "--port", "0", ...args]);
      expect(await p.exited()).toBe(2);
      expect(p.stderr().trim().split("\n")).toHaveLength(1);
      expect(p.stderr()).toContain(message);
    }
  });
});
