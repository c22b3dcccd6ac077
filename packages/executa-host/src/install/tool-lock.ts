// One install of a tool at a time: within this process by a promise chain, across processes by
// `tools/{tool_id}/.lock` (O_EXCL, holding the pid; a lock whose pid is gone is taken over).
import { open, readFile, rm } from "node:fs/promises";
import * as path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { InstallError } from "./install-error.js";

const LOCK_POLL_MS = 100;
const chains = new Map<string, Promise<unknown>>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function acquire(toolDir: string, timeoutMs: number): Promise<() => Promise<void>> {
  const file = path.join(toolDir, ".lock");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fh = await open(file, "wx", 0o600);
      await fh.writeFile(String(process.pid));
      await fh.close();
      return () => rm(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const pid = Number((await readFile(file, "utf8").catch(() => "")).trim());
    if (!Number.isSafeInteger(pid) || pid <= 0 || !alive(pid)) {
      await rm(file, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new InstallError(
        "INVALID_REQUEST",
        `${file}: another install (pid ${pid}) has held this tool for ${timeoutMs} ms; wait for it or remove the file if that process is gone`,
      );
    }
    await delay(LOCK_POLL_MS);
  }
}

export async function withToolLock<T>(
  toolDir: string,
  timeoutMs: number,
  fn: () => Promise<T>,
): Promise<T> {
  const prior = chains.get(toolDir) ?? Promise.resolve();
  const run = prior
    .catch(() => undefined)
    .then(async () => {
      const release = await acquire(toolDir, timeoutMs);
      try {
        return await fn();
      } finally {
        await release();
      }
    });
  chains.set(toolDir, run);
  try {
    return await run;
  } finally {
    if (chains.get(toolDir) === run) chains.delete(toolDir);
  }
}
