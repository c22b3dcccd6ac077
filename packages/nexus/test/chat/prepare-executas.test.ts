// Preparing a turn's executas: a few at once (never one by one, never all at once), failures
// kept per executa, and the turn's abort stops it without waiting for the slow ones.
import type { ExecutaPool } from "@anna-ai/agent";
import { describe, expect, it } from "vitest";
import type { InstalledExecuta } from "../../src/chat/installed-for-turn.js";
import { prepareExecutas } from "../../src/chat/prepare-executas.js";
import type { ExecutaRuntime, ResolvedExecuta } from "../../src/executas/executa-runtime.js";
import { gate } from "../helpers/chat.js";

function installed(n: number): InstalledExecuta[] {
  return Array.from({ length: n }, (_, i) => ({
    toolId: `tool-${i}`,
    slug: `t${i}`,
    name: `T${i}`,
    description: null,
    type: "tool",
    enabled: true,
    source: "user",
    executaVersionId: i + 1,
    snapshot: {},
  }));
}

/** A runtime whose prepares wait until the test opens them, counting how many run at once. */
function slowRuntime() {
  let inFlight = 0;
  let maxInFlight = 0;
  const waiting: { toolId: string; open: () => void }[] = [];
  const runtime: ExecutaRuntime = {
    pool: {} as ExecutaPool,
    async prepare(toolId, executaVersionId, signal) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const g = gate();
      waiting.push({ toolId, open: () => g.open() });
      try {
        await Promise.race([
          g.promise,
          new Promise((_, reject) =>
            signal?.addEventListener("abort", () => reject(signal.reason as Error), {
              once: true,
            }),
          ),
        ]);
      } finally {
        inFlight--;
      }
      if (toolId === "tool-3") throw new Error("no binary for linux-x64");
      return { toolId, executaVersionId } as unknown as ResolvedExecuta;
    },
    close: () => Promise.resolve(),
  };
  return { runtime, waiting, maxInFlight: () => maxInFlight };
}

/** Lets every prepare waiting now, and those that start after, finish. */
async function drain(waiting: { open: () => void }[], until: Promise<unknown>): Promise<void> {
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    waiting.splice(0).forEach((w) => w.open());
    await new Promise((r) => setImmediate(r));
  }
}

describe("prepareExecutas", () => {
  it("prepares at most `concurrency` at once and keeps each failure with its reason", async () => {
    const slow = slowRuntime();
    const run = prepareExecutas(slow.runtime, installed(10), new AbortController().signal, 3);
    await new Promise((r) => setImmediate(r));
    expect(slow.waiting).toHaveLength(3);
    await drain(slow.waiting, run);
    const out = await run;
    expect(slow.maxInFlight()).toBe(3);
    expect([...out.ready.keys()].sort()).toEqual(
      installed(10)
        .map((e) => e.toolId)
        .filter((id) => id !== "tool-3")
        .sort(),
    );
    expect(out.failed).toEqual(new Map([["tool-3", "no binary for linux-x64"]]));
  });

  it("stops when the turn is cancelled, without waiting for the prepares in flight", async () => {
    const slow = slowRuntime();
    const controller = new AbortController();
    const run = prepareExecutas(slow.runtime, installed(10), controller.signal, 4);
    await new Promise((r) => setImmediate(r));
    controller.abort(new Error("cancelled by the user"));
    await expect(run).rejects.toThrow("cancelled by the user");
    // Nothing past the first four was started.
    expect(slow.waiting.map((w) => w.toolId)).toEqual(["tool-0", "tool-1", "tool-2", "tool-3"]);
  });

  it("says why when there is no runtime or the install names no version", async () => {
    const [a, b] = installed(2) as [InstalledExecuta, InstalledExecuta];
    const none = await prepareExecutas(undefined, [a], new AbortController().signal);
    expect(none.failed.get("tool-0")).toMatch(/runs no plugins/);
    const slow = slowRuntime();
    const unversioned = await prepareExecutas(
      slow.runtime,
      [{ ...b, executaVersionId: null }],
      new AbortController().signal,
    );
    expect(unversioned.failed.get("tool-1")).toMatch(/names no version; install it again/);
  });
});
