// Shared helpers for the integration tests: fixture launch specs, awaiting events with explicit
// deadlines, and checking that a process group is gone.

import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { LaunchSpec } from "../../src/launch/types.js";
import { groupHasLiveMembers } from "../../src/process/spawn.js";
import type { PluginEvents, PluginEventName } from "../../src/process/events.js";
import type { PluginProcess, PluginProcessOptions } from "../../src/process/plugin-process.js";

export const FIXTURES_DIR = fileURLToPath(new URL("../fixtures/plugins/", import.meta.url));

/** Short grace periods so shutdown escalation runs in milliseconds. */
export const FAST_SHUTDOWN = {
  shutdownRequestMs: 300,
  stdinGraceMs: 300,
  termGraceMs: 300,
  killWaitMs: 2_000,
};

export const FAST_TIMEOUTS: NonNullable<PluginProcessOptions["timeouts"]> = {
  initializeMs: 2_000,
  describeMs: 2_000,
  shutdown: FAST_SHUTDOWN,
};

export function fixtureSpec(fixture: string, overrides: Partial<LaunchSpec> = {}): LaunchSpec {
  const toolId = fixture.replace(/\.mjs$/, "");
  return {
    toolId,
    type: "node",
    dir: FIXTURES_DIR,
    command: [process.execPath, `${FIXTURES_DIR}${fixture}`],
    cwd: FIXTURES_DIR,
    env: {},
    binaryColdStart: false,
    source: "test",
    warnings: [],
    ...overrides,
  };
}

/** Resolves with the first event matching `predicate`; rejects after `timeoutMs`. */
export function nextEvent<K extends PluginEventName>(
  plugin: PluginProcess,
  event: K,
  predicate: (payload: PluginEvents[K]) => boolean = () => true,
  timeoutMs = 5_000,
): Promise<PluginEvents[K]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${event} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = plugin.on(event, (payload) => {
      if (!predicate(payload)) return;
      clearTimeout(timer);
      off();
      resolve(payload);
    });
  });
}

export function waitForState(
  plugin: PluginProcess,
  state: PluginEvents["state"]["state"],
  timeoutMs = 5_000,
): Promise<PluginEvents["state"]> {
  if (plugin.state === state) {
    return Promise.resolve({ state, previous: state });
  }
  return nextEvent(plugin, "state", (event) => event.state === state, timeoutMs);
}

/** A live (non-zombie) member of the group exists; zombies wait for init to reap them. */
export function groupExists(pgid: number): boolean {
  return groupHasLiveMembers(pgid);
}

export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}

/** Polls until `check` is true; throws with `what` after the deadline. */
export async function eventually(
  check: () => boolean,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export async function expectGroupGone(pgid: number | undefined, timeoutMs = 3_000): Promise<void> {
  if (pgid === undefined) throw new Error("no pid recorded");
  await eventually(() => !groupExists(pgid), `process group ${pgid} is gone`, timeoutMs);
}

export interface LiveProcess {
  pid: number;
  comm: string;
  /** Session id: a helper that called setsid leads its own (session === pid). */
  session: number;
}

/**
 * Every live (non-zombie) process whose environment has `name=value`. Under the supervisor a
 * plugin's own pid is its namespace's (2), useless outside; a variable it inherited finds it, and
 * everything it started, from the host's side.
 */
export function processesWithEnv(name: string, value: string): LiveProcess[] {
  const needle = `\0${name}=${value}\0`;
  const found: LiveProcess[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      if (!`\0${readFileSync(`/proc/${entry}/environ`, "latin1")}`.includes(needle)) continue;
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    // "pid (comm) state ppid pgrp session …": comm may contain spaces and parentheses.
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    if (fields[0] === "Z" || fields[0] === "X") continue;
    found.push({
      pid: Number(entry),
      comm: stat.slice(stat.indexOf("(") + 1, close),
      session: Number(fields[3]),
    });
  }
  return found;
}
