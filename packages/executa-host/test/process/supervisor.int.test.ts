// The supervisor (bubblewrap, a PID namespace per plugin) is really used, and a plugin under it
// behaves as it did without: its own exit code and signal, its SIGTERM grace, ENOENT for a
// command that does not exist, and an opt-out.
import { readlinkSync } from "node:fs";
import { once } from "node:events";
import { describe, expect, it, onTestFinished } from "vitest";
import { PluginProcess } from "../../src/process/plugin-process.js";
import {
  isSupervised,
  pluginExitStatus,
  signalGroup,
  spawnPluginProcess,
} from "../../src/process/spawn.js";
import {
  probeSupervisor,
  resolveSupervisorMode,
  SupervisorError,
  type SupervisorMode,
} from "../../src/process/supervisor.js";
import { FAST_TIMEOUTS, FIXTURES_DIR, fixtureSpec, groupExists, nextEvent } from "./helpers.js";

const supervisor = probeSupervisor();
const withBwrap = it.skipIf(supervisor.kind === "none");
const skipNote = supervisor.kind === "none" ? ` — skipped: ${supervisor.reason}` : "";

function pidNamespacePlugin(mode: SupervisorMode): PluginProcess {
  const plugin = new PluginProcess({
    spec: fixtureSpec("pid-namespace.sh", {
      toolId: "pid-namespace",
      command: ["/bin/sh", `${FIXTURES_DIR}pid-namespace.sh`],
    }),
    userId: "u1",
    timeouts: FAST_TIMEOUTS,
    supervisor: mode,
  });
  onTestFinished(() => plugin.close());
  return plugin;
}

/** Spawns `sh -c script` as the host does and resolves with the plugin's exit status. */
async function runShell(
  script: string,
  mode: SupervisorMode,
  whenUp?: (pgid: number) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; supervised: boolean }> {
  const child = spawnPluginProcess({
    command: ["/bin/sh", "-c", script],
    cwd: FIXTURES_DIR,
    env: process.env,
    supervisor: mode,
  });
  onTestFinished(() => {
    if (child.pid !== undefined && groupExists(child.pid)) signalGroup(child.pid, "SIGKILL");
  });
  child.stderr.resume();
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  if (whenUp !== undefined) {
    await once(child.stdout, "data");
    whenUp(child.pid!);
  }
  child.stdout.resume();
  const [code, signal] = await exited;
  return { ...pluginExitStatus(child, code, signal), supervised: isSupervised(child) };
}

describe("the plugin supervisor", () => {
  withBwrap(`runs each plugin in a PID namespace of its own${skipNote}`, async () => {
    const plugin = pidNamespacePlugin("auto");
    const said = nextEvent(plugin, "stderr", ({ line }) => line.startsWith("pidns="));
    expect((await plugin.invoke("echo", {})).ok).toBe(true);
    const { line } = await said;
    const ours = readlinkSync("/proc/self/ns/pid");
    expect(line).not.toContain(ours);
    // bubblewrap's init is pid 1 of the namespace; the plugin is its first child.
    expect(line).toMatch(/ pid=2$/);
  });

  it("runs the plugin in the host's PID namespace when turned off", async () => {
    const plugin = pidNamespacePlugin("none");
    const said = nextEvent(plugin, "stderr", ({ line }) => line.startsWith("pidns="));
    expect((await plugin.invoke("echo", {})).ok).toBe(true);
    const { line } = await said;
    expect(line).toBe(`pidns=${readlinkSync("/proc/self/ns/pid")} pid=${String(plugin.pid)}`);
  });

  withBwrap(`reports the plugin's own exit code and signal${skipNote}`, async () => {
    expect(await runShell("exit 3", "auto")).toEqual({ code: 3, signal: null, supervised: true });
    expect(await runShell("kill -KILL $$", "auto")).toEqual({
      code: null,
      signal: "SIGKILL",
      supervised: true,
    });
  });

  withBwrap(
    `gives the plugin its SIGTERM grace: the group's SIGTERM reaches the plugin, not the sandbox${skipNote}`,
    async () => {
      // The plugin traps SIGTERM and exits 7 from its handler: bubblewrap dying of the same
      // SIGTERM would take the plugin down before the handler ran (exit by signal instead).
      const script = "trap 'exit 7' TERM; echo up; while :; do sleep 0.05; done";
      const status = await runShell(script, "auto", (pgid) => signalGroup(pgid, "SIGTERM"));
      expect(status).toEqual({ code: 7, signal: null, supervised: true });
      const killed = await runShell("echo up; exec sleep 100", "auto", (pgid) =>
        signalGroup(pgid, "SIGTERM"),
      );
      expect(killed).toEqual({ code: null, signal: "SIGTERM", supervised: true });
    },
  );

  it("fails a command that does not exist with ENOENT, as without the supervisor", async () => {
    const plugin = new PluginProcess({
      spec: fixtureSpec("missing", { command: ["no-such-launcher-for-tests"] }),
      userId: "u1",
      timeouts: FAST_TIMEOUTS,
      supervisor: "auto",
    });
    onTestFinished(() => plugin.close());
    await expect(plugin.describe()).rejects.toThrow(/no-such-launcher-for-tests ENOENT/);
  });
});

describe("resolveSupervisorMode", () => {
  it("takes the option, else ANNA_EXECUTA_SUPERVISOR, else auto", () => {
    expect(resolveSupervisorMode("none", { ANNA_EXECUTA_SUPERVISOR: "bwrap" })).toBe("none");
    expect(resolveSupervisorMode(undefined, { ANNA_EXECUTA_SUPERVISOR: "none" })).toBe("none");
    expect(resolveSupervisorMode(undefined, {})).toBe("auto");
  });

  it("names the variable and the allowed values for an unknown mode", () => {
    expect(() => resolveSupervisorMode(undefined, { ANNA_EXECUTA_SUPERVISOR: "off" })).toThrow(
      new SupervisorError('ANNA_EXECUTA_SUPERVISOR is "off"; expected one of auto, bwrap, none'),
    );
  });

  it("says why bwrap cannot be required where it is missing", () => {
    const status = probeSupervisor({ env: { PATH: "/nonexistent" } });
    expect(status).toEqual({
      kind: "none",
      reason: "bwrap is not on PATH (Debian/Ubuntu: apt install bubblewrap)",
    });
  });
});
