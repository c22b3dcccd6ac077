// "No orphans" when the host itself is SIGKILLed: its exit hook never runs, and the plugin's
// helper has left the process group (setsid) and ignores SIGTERM, so only the supervisor (a PID
// namespace whose init dies with the host) can take it down.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { probeSupervisor } from "../../src/process/supervisor.js";
import { eventually, processesWithEnv, type LiveProcess } from "../process/helpers.js";

const ORPHAN_HOST = fileURLToPath(new URL("./fixtures/orphan-host.mjs", import.meta.url));
const CYCLES = 100;
/** Hosts killed at once: Node startups dominate, and CI has two cores. */
const BATCH = 10;
// Generous: ten Node hosts starting at once on a loaded two-core machine may take many seconds.
const READY_TIMEOUT_MS = 90_000;
const GONE_TIMEOUT_MS = 15_000;
const HELPER_EXEC_TIMEOUT_MS = 10_000;
const supervisor = probeSupervisor();

function markedProcesses(mark: string): LiveProcess[] {
  return processesWithEnv("ORPHAN_MARK", mark);
}

function killAll(processes: readonly LiveProcess[]): void {
  for (const { pid } of processes) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * Starts a host, waits until its plugin's setsid'd helper is up, SIGKILLs the host and returns
 * the processes that had the mark (the helper among them).
 */
async function killHostUnderPlugin(
  mode: "auto" | "none",
): Promise<{ mark: string; before: LiveProcess[] }> {
  const mark = randomUUID();
  const host = spawn(process.execPath, [ORPHAN_HOST, mark, mode], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  onTestFinished(() => {
    if (host.exitCode === null && host.signalCode === null) host.kill("SIGKILL");
    killAll(markedProcesses(mark));
  });
  const exited = new Promise((resolve) => host.once("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(
      () => reject(new Error(`host printed no "ready" within ${READY_TIMEOUT_MS} ms: ${stderr}`)),
      READY_TIMEOUT_MS,
    );
    host.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    host.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!stdout.includes("\n")) return;
      clearTimeout(timer);
      if (stdout.startsWith("ready")) resolve();
      else reject(new Error(`host said ${stdout.trim()}: ${stderr}`));
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`host exited before "ready": ${stderr}`));
    });
  });
  // "grandchild up" is printed just before the helper's shell execs `sleep`: wait for the exec, or
  // a loaded machine catches it still named `sh` (a flake seen in CI).
  await eventually(
    () => helpersOf(markedProcesses(mark)).length === 1,
    `the helper of host ${mark} runs sleep`,
    HELPER_EXEC_TIMEOUT_MS,
  ).catch(() => undefined); // the assertions below report what was found
  const before = markedProcesses(mark);
  host.kill("SIGKILL");
  await exited;
  return { mark, before };
}

/** The helper: `sleep`, in a session that is neither the host's nor the plugin's group leader's. */
function helpersOf(processes: readonly LiveProcess[]): LiveProcess[] {
  return processes.filter((p) => p.comm === "sleep" && p.session === p.pid);
}

describe("no orphans when the host is SIGKILLed", () => {
  it("the attack is real: without the supervisor the setsid'd helper survives", async () => {
    const { mark, before } = await killHostUnderPlugin("none");
    expect(helpersOf(before)).toHaveLength(1);
    const survivors = helpersOf(markedProcesses(mark));
    expect(survivors.map((p) => p.pid)).toEqual(helpersOf(before).map((p) => p.pid));
  }, 120_000);

  it.skipIf(supervisor.kind === "none")(
    `leaves zero survivors over ${CYCLES} cycles under the supervisor (slow by design: ${CYCLES} host processes in batches of ${BATCH})${supervisor.kind === "none" ? ` — skipped: ${supervisor.reason}` : ""}`,
    async () => {
      const helpers: number[] = [];
      const survivors: LiveProcess[] = [];
      for (let done = 0; done < CYCLES; done += BATCH) {
        const killed = await Promise.all(
          Array.from({ length: Math.min(BATCH, CYCLES - done) }, () => killHostUnderPlugin("auto")),
        );
        for (const { mark, before } of killed) {
          const found = helpersOf(before);
          expect(found, `cycle ${mark}: the helper had started`).toHaveLength(1);
          helpers.push(...found.map((p) => p.pid));
          await eventually(
            () => markedProcesses(mark).length === 0,
            `every process of host ${mark} is gone`,
            GONE_TIMEOUT_MS,
          ).catch(() => survivors.push(...markedProcesses(mark)));
        }
      }
      expect(helpers).toHaveLength(CYCLES);
      expect(survivors).toEqual([]);
    },
    900_000,
  );
});
