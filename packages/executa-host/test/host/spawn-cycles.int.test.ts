import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PluginProcess } from "../../src/process/plugin-process.js";
import { FAST_TIMEOUTS, FIXTURES_DIR, fixtureSpec, groupExists } from "../process/helpers.js";

const CYCLES = Number(process.env.SPAWN_CYCLES ?? 1_000);
/**
 * Cycles run in concurrent batches of real processes (spawn → initialize → describe → invoke →
 * H4 shutdown). The plugin is echo.sh, the sh twin of echo.mjs: 1,000 Node startups alone would
 * take a minute of CPU on CI's two cores, and this test is about what the host leaks.
 */
const BATCH = 10;
const ECHO_SH = fixtureSpec("echo.sh", {
  toolId: "echo-sh",
  command: ["/bin/sh", `${FIXTURES_DIR}echo.sh`],
});

function openFds(): number {
  return readdirSync("/proc/self/fd").length;
}

describe("spawn/close cycles", () => {
  it(`leaves no process and no file descriptor behind after ${CYCLES} cycles (slow by design: real processes in batches of ${BATCH})`, async () => {
    const warmup = new PluginProcess({ spec: ECHO_SH, userId: "w", timeouts: FAST_TIMEOUTS });
    await warmup.describe();
    await warmup.close();
    const fdsBefore = openFds();
    const pids: number[] = [];
    for (let done = 0; done < CYCLES; done += BATCH) {
      await Promise.all(
        Array.from({ length: Math.min(BATCH, CYCLES - done) }, async (_, i) => {
          const plugin = new PluginProcess({
            spec: ECHO_SH,
            userId: `u${done + i}`,
            timeouts: FAST_TIMEOUTS,
          });
          try {
            const outcome = await plugin.invoke("echo", {});
            expect(outcome.ok).toBe(true);
            pids.push(plugin.pid!);
          } finally {
            await plugin.close();
          }
        }),
      );
    }
    expect(pids).toHaveLength(CYCLES);
    expect(pids.filter(groupExists)).toEqual([]);
    // A few fds may come and go with the runtime itself; per-cycle leaks would be thousands.
    expect(openFds() - fdsBefore).toBeLessThan(10);
  }, 120_000);
});
