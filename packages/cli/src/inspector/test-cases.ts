// "Save as test case": one invoke from the history as a JSON file next to the plugin, under
// `.anna/inspector/cases/<tool>-<n>.json`. `title`, `tool`, `arguments` and `expect` are the
// fields of @anna-ai/executa-test's ContractCase, so `assertContractOutcome` can judge a replay;
// `recorded` is what the plugin answered when it was saved (redacted), for a closer comparison.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { HistoryEntry, TextRedactor } from "./inspector-log.js";

export const CASES_DIR = path.join(".anna", "inspector", "cases");
/** Numbers tried per tool before giving up (a folder of 10 000 cases is a mistake). */
const MAX_CASE_NUMBER = 10_000;

export interface SavedCase {
  title: string;
  tool: string;
  arguments: Record<string, unknown>;
  expect: "accepted" | "rejected";
  recorded: HistoryEntry["outcome"] & { duration_ms: number };
  saved_at: string;
}

/** Writes the case without overwriting one that exists; returns the file's path. */
export async function saveTestCase(
  pluginDir: string,
  entry: HistoryEntry,
  redactor: TextRedactor,
): Promise<{ path: string; case: SavedCase }> {
  const dir = path.join(pluginDir, CASES_DIR);
  await mkdir(dir, { recursive: true });
  // Tool names are the plugin's: keep them readable but never a path.
  const stem = entry.tool.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\.+/, "_") || "tool";
  const saved: SavedCase = {
    title: `${entry.tool}: saved from the inspector`,
    tool: entry.tool,
    arguments: entry.arguments,
    expect: entry.outcome.ok ? "accepted" : "rejected",
    recorded: { ...redactor.redact(entry.outcome), duration_ms: entry.duration_ms },
    saved_at: new Date(entry.at).toISOString(),
  };
  const body = JSON.stringify(saved, null, 2) + "\n";
  for (let n = 1; n <= MAX_CASE_NUMBER; n++) {
    const file = path.join(dir, `${stem}-${n}.json`);
    try {
      await writeFile(file, body, { flag: "wx" });
      return { path: file, case: saved };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  throw new Error(
    `${dir} already holds ${MAX_CASE_NUMBER} cases for ${entry.tool}; remove some to save more`,
  );
}
