// "Save as mock" (D-cli-xdev-37): the calls one invoke made to the host (sampling, storage,
// images, web, embeddings, agent), with the answers it got, as a mock-answer file
// (docs/mocks.md) under `.anna/inspector/mocks/<tool>-<n>.jsonl`. Each line matches its call's
// own parameters, so a later run with `--mock-sampling <file>` (or the family's flag) answers the
// same request the same way, offline. The frames are the log's, already redacted: no secret
// reaches the file.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FrameEntry, HistoryEntry } from "./inspector-log.js";

export const MOCKS_DIR = path.join(".anna", "inspector", "mocks");
const MAX_MOCK_NUMBER = 10_000;
/** The families a mock-answer file answers (docs/mocks.md), by the reverse method's prefix. */
const MOCKABLE = new Set(["sampling", "agent", "image", "embeddings", "web", "storage"]);
/** Request fields that say who called, not what: left out of `match` (as are `_` transport hints). */
const CALLER_FIELDS = new Set(["context", "metadata"]);

export class NothingToMock extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NothingToMock";
  }
}

export interface SavedMock {
  path: string;
  lines: number;
  /** Calls left out, each with why (another family, a frame too large to keep). */
  skipped: string[];
}

interface Call {
  method: string;
  params: Record<string, unknown>;
  answer: { result: unknown } | { error: unknown } | undefined;
}

/** The reverse calls of `invokeId` in `frames`, each with its answer, in call order. */
export function callsOf(
  frames: readonly FrameEntry[],
  invokeId: string,
): {
  calls: Call[];
  skipped: string[];
} {
  const calls: Call[] = [];
  const skipped: string[] = [];
  for (const [i, f] of frames.entries()) {
    if (!f.reverse || f.kind !== "request" || f.direction !== "in") continue;
    if (f.message === undefined) {
      // Kept only as a preview: its params cannot be matched against.
      if (f.preview?.includes(invokeId))
        skipped.push(`${f.method}: the frame was too large to keep`);
      continue;
    }
    const params = ((f.message as { params?: unknown }).params ?? {}) as Record<string, unknown>;
    if (invokeIdOf(params) !== invokeId) continue;
    const reply = frames
      .slice(i + 1)
      .find((r) => r.direction === "out" && r.id === f.id && r.kind !== "request");
    const body = reply?.message as { result?: unknown; error?: unknown } | undefined;
    calls.push({
      method: f.method ?? "",
      params,
      answer:
        body === undefined
          ? undefined
          : "error" in body && body.error !== undefined
            ? { error: body.error }
            : { result: body.result },
    });
  }
  return { calls, skipped };
}

function invokeIdOf(params: Record<string, unknown>): string | undefined {
  const context = params.context as { invoke_id?: unknown } | undefined;
  const metadata = params.metadata as { executa_invoke_id?: unknown } | undefined;
  const id = context?.invoke_id ?? metadata?.executa_invoke_id ?? params.invoke_id;
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** Writes the invoke's calls as a mock-answer file without overwriting one; its path. */
export async function saveMock(
  pluginDir: string,
  entry: HistoryEntry,
  frames: readonly FrameEntry[],
): Promise<SavedMock> {
  if (entry.invoke_id === undefined) {
    throw new NothingToMock(`invoke ${entry.id} was not made from this page; re-run it, then save`);
  }
  const { calls, skipped } = callsOf(frames, entry.invoke_id);
  const lines: string[] = [];
  for (const call of calls) {
    const slash = call.method.indexOf("/");
    const ns = call.method.slice(0, slash);
    if (slash < 0 || !MOCKABLE.has(ns)) {
      skipped.push(`${call.method}: not a family a mock-answer file answers`);
      continue;
    }
    if (call.answer === undefined) {
      skipped.push(`${call.method}: its answer is no longer in the frame log`);
      continue;
    }
    const match = Object.fromEntries(
      Object.entries(call.params).filter(([k]) => !CALLER_FIELDS.has(k) && !k.startsWith("_")),
    );
    lines.push(JSON.stringify({ ns, method: call.method.slice(slash + 1), match, ...call.answer }));
  }
  if (lines.length === 0) {
    throw new NothingToMock(
      calls.length === 0 && skipped.length === 0
        ? `${entry.tool} made no calls to the host during invoke ${entry.id} (sampling, storage, images, web, …): there is nothing to mock`
        : `none of the calls of invoke ${entry.id} can be mocked: ${skipped.join("; ")}`,
    );
  }
  const dir = path.join(pluginDir, MOCKS_DIR);
  await mkdir(dir, { recursive: true });
  const stem = entry.tool.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\.+/, "_") || "tool";
  const header = `# ${entry.tool}: the host calls of one invoke, saved from the inspector at ${new Date().toISOString()}; answers them offline with --mock-<family> <this file>`;
  const body = [header, ...lines].join("\n") + "\n";
  for (let n = 1; n <= MAX_MOCK_NUMBER; n++) {
    const file = path.join(dir, `${stem}-${n}.jsonl`);
    try {
      await writeFile(file, body, { flag: "wx" });
      return { path: file, lines: lines.length, skipped };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  throw new Error(`${dir} already holds ${MAX_MOCK_NUMBER} mocks for ${entry.tool}`);
}
