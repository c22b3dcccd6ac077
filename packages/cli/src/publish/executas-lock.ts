// `.anna/executas.lock.json` (real-world-cli.md §8): which tool_id each bundled handle resolved
// to on this host, and how (`override` from --executa-id, `cache` from the executa folder's
// .anna/executa.json, `published` by apps publish, `working` by apps push, `cut` once a cut
// froze it). A lock for another host is ignored.
import path from "node:path";
import { readJsonObject, writeJsonAtomic } from "./json-file.js";

export const LOCK_SCHEMA = "anna-executas-lock/v1";

export type LockSource = "override" | "cache" | "published" | "working" | "cut";

export interface LockEntry {
  tool_id: string;
  path?: string;
  source: LockSource;
}

export const lockPath = (dir: string) => path.join(dir, ".anna", "executas.lock.json");

export async function readLock(dir: string, host: string): Promise<Record<string, LockEntry>> {
  const v = await readJsonObject(lockPath(dir));
  if (v === undefined || v.host !== host || typeof v.executas !== "object" || v.executas === null) {
    return {};
  }
  const out: Record<string, LockEntry> = {};
  for (const [handle, e] of Object.entries(v.executas as Record<string, unknown>)) {
    const entry = e as Partial<LockEntry> | null;
    if (typeof entry?.tool_id === "string") out[handle] = entry as LockEntry;
  }
  return out;
}

export async function writeLock(
  dir: string,
  host: string,
  executas: Record<string, LockEntry>,
): Promise<void> {
  await writeJsonAtomic(lockPath(dir), { $schema: LOCK_SCHEMA, host, executas });
}

/** After a cut: the entries whose tool_id the server froze become `cut`. */
export async function markCut(dir: string, host: string, frozenToolIds: readonly string[]) {
  const lock = await readLock(dir, host);
  let changed = false;
  for (const e of Object.values(lock)) {
    if (frozenToolIds.includes(e.tool_id) && e.source !== "cut") {
      e.source = "cut";
      changed = true;
    }
  }
  if (changed) await writeLock(dir, host, lock);
  return changed;
}
