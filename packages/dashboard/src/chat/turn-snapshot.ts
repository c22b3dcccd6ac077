// What survives a page reload of a running turn: the turn folded so far and its last frame id,
// in sessionStorage (this tab only, gone with it). On reload the stream reopens after that id
// (`?after=`), so the answer continues where it was instead of streaming again from the start.
// A turn whose snapshot is missing or too big is replayed from its first frame, which the
// server keeps, so nothing is lost either way; the snapshot only saves the replay.
import { type TurnProgress, emptyProgress } from "./turn-progress";

const KEY_PREFIX = "anna.chat.turn.";
/** A bigger turn is not saved (sessionStorage holds about 5 MB for the whole site). */
export const MAX_SNAPSHOT_CHARS = 512 * 1024;

export function loadSnapshot(turnId: string): TurnProgress {
  try {
    const raw = window.sessionStorage.getItem(KEY_PREFIX + turnId);
    if (raw === null) return emptyProgress(turnId);
    const saved = JSON.parse(raw) as TurnProgress;
    if (saved.turnId !== turnId || !Array.isArray(saved.parts) || !(saved.lastSeq >= 0)) {
      return emptyProgress(turnId);
    }
    return saved;
  } catch {
    // Storage blocked or a snapshot from another version of the page: replay from the start.
    return emptyProgress(turnId);
  }
}

export function saveSnapshot(p: TurnProgress): void {
  try {
    if (p.status !== "running") {
      window.sessionStorage.removeItem(KEY_PREFIX + p.turnId);
      return;
    }
    const raw = JSON.stringify(p);
    if (raw.length > MAX_SNAPSHOT_CHARS) window.sessionStorage.removeItem(KEY_PREFIX + p.turnId);
    else window.sessionStorage.setItem(KEY_PREFIX + p.turnId, raw);
  } catch {
    // A full or blocked storage only costs a replay after reload.
  }
}
