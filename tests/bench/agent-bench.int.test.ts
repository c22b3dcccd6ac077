// `bench:agent` still runs: every piece, at --quick counts, as the real script in its own
// process, produces a figure per row and, per non-baseline row, a ratio to a baseline of its
// group. Never a timing assertion: the numbers are only checked to be numbers.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Sandbox } from "@anna-ai/agent";
import { describe, expect, it, onTestFinished } from "vitest";
import { spawnWatched } from "../support/child-process.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSX = createRequire(import.meta.url).resolve("tsx/cli");
const RUN = join(ROOT, "bench", "agent", "run.ts");
/** A loaded 2-core box starts Nexus in several seconds; this bounds the whole quick run. */
const RUN_TIMEOUT_MS = 240_000;

interface JsonRow {
  piece: string;
  group: string;
  name: string;
  baseline?: string;
  opsPerS: number;
  usPerOp: number;
  p50Us?: number;
  p99Us?: number;
  cpuUsPerOp?: number;
}

function bench(args: string[]) {
  return spawnWatched(process.execPath, [TSX, RUN, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LANG: "C.UTF-8" },
    cwd: ROOT,
    timeoutMs: RUN_TIMEOUT_MS,
  });
}

describe("npm run bench:agent", () => {
  it(
    "prints every piece's rows with ratios to a baseline, and writes them as JSON",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "anna-bench-agent-smoke-"));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const file = join(dir, "agent.json");
      const run = bench(["--quick", "--concurrent-turns", "2", "--json", file]);
      expect(await run.exited(), run.stderr()).toBe(0);
      const { rows } = JSON.parse(readFileSync(file, "utf8")) as { rows: JsonRow[] };

      expect(new Set(rows.map((r) => r.piece))).toEqual(
        new Set(["turn", "tool", "first-token", "nexus"]),
      );
      for (const row of rows) {
        expect(Number.isFinite(row.usPerOp) && row.usPerOp > 0, `${row.name} per op`).toBe(true);
        expect(Number.isFinite(row.opsPerS) && row.opsPerS > 0, `${row.name} ops/s`).toBe(true);
        if (row.baseline === undefined) continue;
        expect(
          rows.some((b) => b.group === row.group && b.name === row.baseline),
          `${row.name}: baseline ${row.baseline} in ${row.group}`,
        ).toBe(true);
        // The printed table carries the ratio and the difference for this row.
        expect(run.stdout()).toMatch(
          new RegExp(
            `${escape(row.name)} .*×\\d+\\.\\d\\d the cost of ${escape(row.baseline)} \\([+-]`,
          ),
        );
      }
      const latency = rows.filter((r) => r.piece === "first-token" || r.piece === "nexus");
      for (const row of latency) {
        expect(row.p99Us! >= row.p50Us!, `${row.name}: p99 ≥ p50`).toBe(true);
      }
      for (const row of rows.filter((r) => r.piece === "nexus")) {
        expect(row.cpuUsPerOp! > 0, `${row.name}: CPU per turn`).toBe(true);
      }
      // The bubblewrap rows are there exactly when the sandbox can run here.
      const bwrap = new Sandbox({ mode: "bwrap", root: dir }).probe().usable;
      const groups = new Set(rows.filter((r) => r.piece === "tool").map((r) => r.group));
      expect(groups.has("turn with one tool call (in process)")).toBe(true);
      expect(groups.has("tool call alone (none)")).toBe(true);
      expect(groups.has("turn with one tool call (none)")).toBe(true);
      expect(groups.has("tool call alone (bwrap)")).toBe(bwrap);
      expect(groups.has("turn with one tool call (bwrap)")).toBe(bwrap);
    },
    RUN_TIMEOUT_MS + 10_000,
  );

  it("refuses an unknown piece, naming the pieces it has", async () => {
    const run = bench(["--only", "turn,speed"]);
    expect(await run.exited()).toBe(2);
    expect(run.stderr()).toContain(
      "unknown piece(s): speed (have: turn, tool, first-token, nexus)",
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
