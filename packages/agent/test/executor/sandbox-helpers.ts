// Shared by the executor tests: the probe (tests skip with its reason when bubblewrap cannot run
// here), fixture specs, throwaway sandbox roots and a /proc scan for marked processes.
import {
  chmodSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { LaunchSpec } from "@anna-ai/executa-host";
import { onTestFinished } from "vitest";
import { Sandbox, type PoolExecuta, type SandboxOptions } from "../../src/index.js";

export const FIXTURES = fileURLToPath(new URL("../fixtures/sandbox/", import.meta.url));

/** Probed once for the file; `reason` is printed by the tests that skip. */
export const BWRAP = new Sandbox({ mode: "bwrap", root: tmpdir() }).probe();
export const SKIP_REASON = BWRAP.usable ? "" : `bubblewrap sandbox unusable here: ${BWRAP.reason}`;

export function fixtureExecuta(
  kind: "node" | "python",
  toolId: string,
  trusted = false,
): PoolExecuta {
  const dir = reachableCopy(path.join(FIXTURES, kind === "node" ? "node-plugin" : "python-plugin"));
  const spec: LaunchSpec = {
    toolId,
    type: kind,
    dir,
    command: kind === "node" ? ["node", "main.mjs"] : ["python3", "main.py"],
    cwd: dir,
    env: {},
    binaryColdStart: false,
    source: "test",
    warnings: [],
  };
  return { spec, trusted };
}

const reachableCopies = new Map<string, string>();

/**
 * The fixture plugin copied to a folder the sandbox's uid can reach: the checkout may sit under
 * a 0700 parent (a `mktemp -d` clone), which nobody cannot traverse. One copy per source for the
 * test file (the pool keeps one process per launch spec, so the folder must not change between
 * calls), removed when the worker exits.
 */
export function reachableCopy(source: string): string {
  const known = reachableCopies.get(source);
  if (known !== undefined) return known;
  const base = mkdtempSync(path.join(tmpdir(), "anna-sandbox-fixture-"));
  chmodSync(base, 0o755);
  process.once("exit", () => rmSync(base, { recursive: true, force: true }));
  const dir = path.join(base, path.basename(source));
  cpSync(source, dir, { recursive: true });
  reachableCopies.set(source, dir);
  return dir;
}

/** A fresh sandbox root (0711, as the sandbox's uid must traverse it) removed after the test. */
export function sandboxRoot(): string {
  const root = mkdtempSync(path.join(tmpdir(), "anna-sandbox-test-"));
  chmodSync(root, 0o711);
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

/** A stand-in for the server's data directory, with a secret in it. */
export function serverDataDir(): { dir: string; secret: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "anna-server-data-"));
  chmodSync(dir, 0o755);
  const secret = path.join(dir, "nexus.sqlite");
  writeFileSync(secret, "server secret", { mode: 0o644 });
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return { dir, secret };
}

export function bwrapOptions(root: string, extra: Partial<SandboxOptions> = {}): SandboxOptions {
  return { mode: "bwrap", root, ...extra };
}

/** Live (non-zombie) processes whose environment has NAME=value. */
export function processesWithEnv(name: string, value: string): number[] {
  const needle = `\0${name}=${value}\0`;
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!`\0${readFileSync(`/proc/${entry}/environ`, "latin1")}`.includes(needle)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
      if (state !== "Z" && state !== "X") found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Whether the pid exists and is not a zombie. */
export function isLive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

export async function eventually(
  check: () => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const FAST = {
  timeouts: { shutdown: { shutdownRequestMs: 500, stdinGraceMs: 300, termGraceMs: 300 } },
  restart: { backoffBaseMs: 50 },
} as const;
