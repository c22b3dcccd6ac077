// `anna-nexus start --event-bus` / EVENT_BUS as a real process against a real nats-server: the
// node reports the bus in its log, /readyz and /metrics; a URL of another scheme is a one-line
// usage error; a bus nobody answers at stops the start with exit 3.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/postgres.js";
import { NATS_MISSING, startNats } from "../helpers/nats.js";
import { startNexus } from "../helpers/process.js";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "anna-nexus-busflag-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** main() prints an ExitError as one line: `anna-nexus: <message>`. */
function lastLine(stderr: string): string {
  return stderr.trim().split("\n").at(-1) ?? "";
}

describe("anna-nexus start --event-bus", () => {
  it("refuses a URL that is not nats://, naming it and what is expected", async () => {
    const p = startNexus(["start", "--port", "0", "--data", tempDir()], {
      EVENT_BUS: "redis://cache:6379",
    });
    expect(await p.exited()).toBe(2);
    expect(p.stderr().trim().split("\n")).toHaveLength(1);
    expect(lastLine(p.stderr())).toBe(
      "anna-nexus: event bus URL 'redis://cache:6379' has scheme 'redis:'; expected nats://host:port (see: anna-nexus start --help)",
    );
  });

  it("takes the flag over EVENT_BUS, and never prints a password from the URL", async () => {
    const p = startNexus(
      ["start", "--port", "0", "--data", tempDir(), "--event-bus", "tls://u:hunter2@nats"],
      { EVENT_BUS: "nats://127.0.0.1:1" },
    );
    expect(await p.exited()).toBe(2);
    expect(lastLine(p.stderr())).toContain("'tls://***@nats' has scheme 'tls:'");
    expect(p.stderr()).not.toContain("hunter2");
  });

  it("wants --event-bus with --event-bus-prefix", async () => {
    const p = startNexus(["start", "--port", "0", "--data", tempDir()], {
      ANNA_EVENT_BUS_PREFIX: "team.events",
    });
    expect(await p.exited()).toBe(2);
    expect(lastLine(p.stderr())).toContain("--event-bus-prefix needs --event-bus");
  });

  it("stops the start with exit 3 when no NATS server answers", async () => {
    const port = await freePort();
    const p = startNexus(["start", "--port", "0", "--data", tempDir()], {
      EVENT_BUS: `nats://127.0.0.1:${port}`,
    });
    expect(await p.exited()).toBe(3);
    expect(lastLine(p.stderr())).toMatch(
      new RegExp(
        `^anna-nexus: event bus unavailable: cannot connect to nats://127\\.0\\.0\\.1:${port}: `,
      ),
    );
  });

  it.skipIf(NATS_MISSING !== undefined)(
    `reports the bus in its log, /readyz and /metrics${NATS_MISSING ? ` (skipped: ${NATS_MISSING})` : ""}`,
    async () => {
      const nats = await startNats();
      const p = startNexus(["start", "--port", "0", "--data", tempDir(), "--metrics-port", "0"], {
        EVENT_BUS: nats.url,
      });
      const url = (await p.waitFor(/"msg":"listening","url":"(http:\/\/[^"]+)"/))[1] as string;
      const metrics = (await p.waitFor(/"msg":"metrics listening","url":"(http:\/\/[^"]+)"/))[1];
      expect(p.stderr()).toContain(
        `"msg":"event bus ready","event_bus":"${nats.url}","subject_prefix":"anna.events"`,
      );
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: "ready", checks: { event_bus: "ok" } });
      const text = await (await fetch(metrics as string)).text();
      expect(text).toContain("anna_event_bus_connected 1");
      expect(text).toContain('anna_event_bus_events_dropped_total{reason="disconnected"} 0');

      // NATS gone: the node says so and stays in the balancer (the check is reported only).
      await nats.kill();
      await p.waitFor(/"msg":"event bus disconnected; reconnecting"/);
      const down = await fetch(`${url}/readyz`);
      expect(down.status).toBe(200);
      expect(await down.json()).toMatchObject({ checks: { event_bus: "reconnecting" } });
      await nats.restart();
      await p.waitFor(/"msg":"event bus reconnected"/);
      expect(await (await fetch(`${url}/readyz`)).json()).toMatchObject({
        checks: { event_bus: "ok" },
      });
      p.signal("SIGTERM");
      expect(await p.exited()).toBe(0);
    },
  );
});
