import { describe, expect, it, onTestFinished } from "vitest";
import { shutdownPluginProcess, type ShutdownTarget } from "../../src/process/shutdown.js";
import { spawnPluginProcess } from "../../src/process/spawn.js";
import { FIXTURES_DIR, groupExists } from "./helpers.js";

/** Generous stdin grace: a passing test ends at EOF anyway, and CI may be slow to schedule. */
const FAST = { shutdownRequestMs: 200, stdinGraceMs: 2_000, termGraceMs: 300, killWaitMs: 2_000 };

function start(script: string): {
  target: ShutdownTarget;
  pid: number;
  firstOutput: Promise<unknown>;
} {
  const child = spawnPluginProcess({
    command: [process.execPath, "-e", script],
    cwd: FIXTURES_DIR,
    env: process.env,
  });
  for (const stream of [child.stdin, child.stdout, child.stderr]) stream.on("error", () => {});
  const firstOutput = new Promise((resolve) => child.stdout.once("data", resolve));
  child.stdout.resume();
  child.stderr.resume();
  let exited = false;
  const exitedPromise = new Promise<unknown>((resolve) =>
    child.once("exit", () => {
      exited = true;
      resolve(undefined);
    }),
  );
  onTestFinished(() => {
    if (child.pid !== undefined && groupExists(child.pid)) process.kill(-child.pid, "SIGKILL");
  });
  return {
    pid: child.pid!,
    firstOutput,
    target: {
      pgid: child.pid,
      exited: exitedPromise,
      hasExited: () => exited,
      closeStdin: () => {
        child.stdin.end();
      },
    },
  };
}

const ON_EOF_EXIT =
  "process.stdin.resume(); process.stdin.on('end', () => process.exit(0)); process.stdout.write('up\\n');";
const STUBBORN =
  "process.on('SIGTERM', () => {}); process.stdin.resume(); setInterval(() => {}, 1000); process.stdout.write('up\\n');";
/** Leaves a grandchild behind in its group and exits on EOF. */
const FORKER =
  "require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); " +
  ON_EOF_EXIT;

describe("shutdownPluginProcess (H4)", () => {
  it("stops at stdin EOF for a well-behaved plugin", async () => {
    const { target, pid } = start(ON_EOF_EXIT);
    expect(await shutdownPluginProcess(target, { grace: FAST })).toBe("stdin_eof");
    expect(groupExists(pid)).toBe(false);
  });

  it("escalates to SIGKILL for the whole group when SIGTERM is ignored", async () => {
    const { target, pid, firstOutput } = start(STUBBORN);
    await firstOutput; // its SIGTERM handler is installed
    const grace = { ...FAST, stdinGraceMs: 300 };
    expect(await shutdownPluginProcess(target, { grace })).toBe("sigkill");
    expect(groupExists(pid)).toBe(false);
  });

  it("sweeps helpers the plugin left in its process group", async () => {
    const { target, pid, firstOutput } = start(FORKER);
    await firstOutput; // the helper was started
    expect(await shutdownPluginProcess(target, { grace: FAST })).toBe("stdin_eof");
    expect(groupExists(pid)).toBe(false);
  });

  it("starts at SIGTERM for a timeout kill (H5)", async () => {
    const { target, pid, firstOutput } = start(ON_EOF_EXIT.replace("process.exit(0)", "undefined"));
    // Under the supervisor a SIGTERM sent before the plugin's own program runs is not seen.
    await firstOutput;
    const started = Date.now();
    expect(await shutdownPluginProcess(target, { grace: FAST, startAt: "sigterm" })).toBe(
      "sigterm",
    );
    expect(Date.now() - started).toBeLessThan(FAST.termGraceMs);
    expect(groupExists(pid)).toBe(false);
  });
});
