// The desk beside the chat: the person's app windows, each the app's bundle in a sandboxed
// iframe (no allow-same-origin: the app's origin stays opaque, so it cannot read this page or
// call the API with the person's cookie) inside a window frame, through the shared window host
// (@anna-ai/app-runtime/host: frames, dock, postMessage bridge, event relay). The windows are the
// server's: the desk lists them (so a reload restores them where they were), every close, focus,
// minimise, move and resize is a PATCH or DELETE of the runtime windows API, and the runtime
// event stream brings the windows a chat turn (or another tab) opens.
// A desk per conversation: a window opened beside a conversation (`conversation_session_uuid`)
// is on that conversation's desk only; switching conversation takes the others' frames off the
// page (their windows stay open on the server) and shows this one's. A window of no conversation
// (opened from My apps) is on every desk.
// Below the mobile breakpoint the host's mobile form factor: each window a full-screen sheet
// over the chat, the newest on top, its minimise saying Back (desk.css).
// Loaded lazily with the chat page: the window host is not in the first page load.
import { type HostReport, type WindowHost, createWindowHost } from "@anna-ai/app-runtime/host";
import { useEffect, useRef, useState } from "react";
import { describeError } from "../api/client";
import { type AppWindowInfo, type OpenedAppWindow, listAppWindows } from "../api/windows";
import { currentFormFactor, useFormFactor } from "./form-factor";
import { registerDesk } from "./open-window";
import "./desk.css";

/** What the person reads about a request the server refused; dropped messages are the app's. */
function describeReport(report: HostReport): string | null {
  if (report.kind !== "refused") return null;
  const what = report.action === "close" ? "close" : "change";
  return `Could not ${what} the window: ${report.error.message}`;
}

/** Whether a window goes on the desk of `conversation` (null: the chat with none open). */
function belongsTo(conversationOfWindow: unknown, conversation: string | null): boolean {
  return typeof conversationOfWindow !== "string" || conversationOfWindow === conversation;
}

/** A window the server just opened, on the desk as the host's `openView` would put it. */
function show(host: WindowHost, opened: OpenedAppWindow): void {
  const wid = opened.window.window_uuid;
  if (host.frame(wid)) {
    // A single-instance view already open: the server answered the same window.
    host.applyStatus(wid, opened.window.status);
    host.flash(wid);
    return;
  }
  host.open(opened.window, opened.url);
  host.cascade(wid);
  void host.focus(wid);
}

/**
 * Shows `conversation`'s desk: other conversations' frames leave the page, and the server's
 * live windows of this one each come with a fresh token, placed and stacked where it keeps them.
 * With `resync` (the event stream missed events it no longer has) the frames already shown are
 * checked too: a window closed meanwhile goes, the others take the server's status and place.
 */
async function showDeskOf(
  host: WindowHost,
  conversation: string | null,
  left: () => boolean,
  resync = false,
): Promise<void> {
  for (const frame of host.frames())
    if (!belongsTo(frame.conversationId, conversation)) host.remove(frame.wid);
  const windows = (await listAppWindows()).filter((w: AppWindowInfo) =>
    belongsTo(w.conversation_session_uuid, conversation),
  );
  if (left()) return;
  if (resync) {
    const live = new Map(windows.map((w) => [w.window_uuid, w]));
    for (const frame of host.frames()) {
      const win = live.get(frame.wid);
      if (win === undefined) {
        host.remove(frame.wid);
        continue;
      }
      host.applyStatus(frame.wid, win.status);
      host.applyGeometry(frame.wid, win.geometry);
      host.applyFocus(frame.wid, win.z_index);
    }
  }
  windows.sort((a, b) => (a.z_index ?? 0) - (b.z_index ?? 0));
  for (const win of windows) {
    if (left()) return;
    if (host.frame(win.window_uuid)) continue;
    const link = await host.client.windowLink(win.window_uuid);
    if (link.ok && !left()) host.open(link.window, link.url);
  }
}

export function AppDesk({ conversationId }: { conversationId: string | null }) {
  const framesRef = useRef<HTMLDivElement>(null);
  const dockRef = useRef<HTMLDivElement>(null);
  const hostRef = useRef<WindowHost | null>(null);
  // The host's filters read the conversation shown now, not the one it was created under.
  const conversationRef = useRef(conversationId);
  const formFactor = useFormFactor();
  const [count, setCount] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const container = framesRef.current;
    const dock = dockRef.current;
    if (!container || !dock) return;
    const host = createWindowHost({
      container,
      dock,
      formFactor: currentFormFactor(),
      accepts: (win) => belongsTo(win["conversation_session_uuid"], conversationRef.current),
      onReport: (report) => {
        const text = describeReport(report);
        if (text !== null) setProblem(text);
      },
    });
    hostRef.current = host;
    host.start();
    host.followEvents({
      onResync: () => {
        showDeskOf(host, conversationRef.current, () => hostRef.current !== host, true).catch(
          (error: unknown) => setProblem(describeError(error)),
        );
      },
    });
    const stopCounting = host.onChange(() => setCount(host.frames().length));
    const unregister = registerDesk({
      show: (opened) => {
        if (belongsTo(opened.window.conversation_session_uuid, conversationRef.current))
          show(host, opened);
      },
    });
    return () => {
      hostRef.current = null;
      unregister();
      stopCounting();
      host.stop();
      // Only this page's frames go: the windows stay open on the server for the next visit.
      for (const frame of host.frames()) host.remove(frame.wid);
    };
  }, []);

  useEffect(() => {
    conversationRef.current = conversationId;
    const host = hostRef.current;
    if (!host) return;
    let left = false;
    showDeskOf(host, conversationId, () => left).catch((error: unknown) =>
      setProblem(describeError(error)),
    );
    return () => {
      left = true;
    };
  }, [conversationId]);

  useEffect(() => hostRef.current?.setFormFactor(formFactor), [formFactor]);

  return (
    <aside className={`desk${count === 0 ? " empty" : ""}`} aria-label="App windows">
      {problem !== null && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <div className="desk-frames" ref={framesRef} />
      <div
        className="desk-dock"
        ref={dockRef}
        aria-label={formFactor === "mobile" ? "Open app windows" : "Minimised windows"}
      />
    </aside>
  );
}
