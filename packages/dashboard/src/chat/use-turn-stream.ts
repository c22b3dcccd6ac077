// Follows one turn's event stream with EventSource: frames fold into a TurnProgress as they
// arrive; a dropped connection is EventSource's to reopen (it sends Last-Event-ID itself); a
// reload resumes from the tab's snapshot (turn-snapshot.ts) with `?after=`. The stream is
// closed at `turn.finished`, or EventSource would reconnect to a finished turn forever.
import { useEffect, useRef, useState } from "react";
import { seg } from "../api/client";
import { loadSnapshot, saveSnapshot } from "./turn-snapshot";
import { type TurnProgress, foldFrame } from "./turn-progress";

/**
 * The event types listened for. EventSource hands a named event only to a listener of that
 * name, so a type the server adds later is not received at all until it is listed here; that
 * is the harmless outcome (foldFrame ignores types it does not know anyway).
 */
export const TURN_EVENT_TYPES = [
  "turn.started",
  "notice",
  "notices",
  "apps.activated",
  "step.started",
  "text.delta",
  "tool.call",
  "tool.result",
  "step.finished",
  "turn.finished",
] as const;

/** How often at most the snapshot is written while frames stream (and always at pagehide). */
const SNAPSHOT_EVERY_MS = 300;

export interface TurnStream {
  progress: TurnProgress;
  /** Set when the stream could not be opened or was refused (not for drops EventSource retries). */
  streamError: string | null;
}

export function useTurnStream(turnId: string): TurnStream {
  const [progress, setProgress] = useState(() => loadSnapshot(turnId));
  const [streamError, setStreamError] = useState<string | null>(null);
  const latest = useRef(progress);

  useEffect(() => {
    let current = loadSnapshot(turnId);
    latest.current = current;
    setProgress(current);
    setStreamError(null);
    if (current.status !== "running") return;
    const after = current.lastSeq > 0 ? `?after=${current.lastSeq}` : "";
    const source = new EventSource(`/api/v1/chat/turns/${seg(turnId)}/events${after}`);
    let savedAt = 0;
    const save = () => {
      savedAt = Date.now();
      saveSnapshot(latest.current);
    };
    const onFrame = (ev: MessageEvent<string>) => {
      let data: unknown;
      try {
        data = JSON.parse(ev.data);
      } catch {
        return;
      }
      const next = foldFrame(current, Number(ev.lastEventId), data);
      if (next === current) return;
      current = next;
      latest.current = next;
      setProgress(next);
      if (next.status !== "running") {
        source.close();
        save();
      } else if (Date.now() - savedAt >= SNAPSHOT_EVERY_MS) {
        save();
      }
    };
    const onError = () => {
      // CONNECTING: a drop EventSource is retrying. CLOSED: the server refused the stream
      // (404, 401, 429), which EventSource does not retry and does not explain.
      if (source.readyState === EventSource.CLOSED && current.status === "running") {
        setStreamError(
          "the answer's stream was refused by the server; reload the page to try again",
        );
      }
    };
    for (const type of TURN_EVENT_TYPES) source.addEventListener(type, onFrame);
    source.addEventListener("message", onFrame);
    source.addEventListener("error", onError);
    window.addEventListener("pagehide", save);
    return () => {
      window.removeEventListener("pagehide", save);
      source.close();
      save();
    };
  }, [turnId]);

  return { progress, streamError };
}
