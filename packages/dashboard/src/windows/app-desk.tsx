// The desk beside the chat: the person's app windows, each the app's bundle in a sandboxed
// iframe (no allow-same-origin: the app's origin stays opaque, so it cannot read this page or
// call the API with the person's cookie) inside a window frame, through the shared window host
// (@anna-ai/app-runtime/host: frames, dock, postMessage bridge, event relay). The windows are the
// server's: on mount the desk lists them (so a reload restores them where they were), every
// close, focus, minimise, move and resize is a PATCH or DELETE of the runtime windows API, and
// the runtime event stream brings the windows a chat turn (or another tab) opens.
// Loaded lazily with the chat page: the window host is not in the first page load.
import { type HostReport, type WindowHost, createWindowHost } from "@anna-ai/app-runtime/host";
import { useEffect, useRef, useState } from "react";
import { describeError } from "../api/client";
import { type OpenedAppWindow, listAppWindows } from "../api/windows";
import { registerDesk } from "./open-window";
import "./desk.css";

/** What the person reads about a request the server refused; dropped messages are the app's. */
function describeReport(report: HostReport): string | null {
  if (report.kind !== "refused") return null;
  const what = report.action === "close" ? "close" : "change";
  return `Could not ${what} the window: ${report.error.message}`;
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

/** The server's live windows, each with a fresh token, placed where the server keeps them. */
async function restore(host: WindowHost, left: () => boolean): Promise<void> {
  const windows = await listAppWindows();
  windows.sort((a, b) => (a.z_index ?? 0) - (b.z_index ?? 0));
  for (const win of windows) {
    if (left()) return;
    const link = await host.client.windowLink(win.window_uuid);
    if (link.ok && !left()) host.open(link.window, link.url);
  }
}

export function AppDesk() {
  const framesRef = useRef<HTMLDivElement>(null);
  const dockRef = useRef<HTMLDivElement>(null);
  const [count, setCount] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const container = framesRef.current;
    const dock = dockRef.current;
    if (!container || !dock) return;
    const host = createWindowHost({
      container,
      dock,
      onReport: (report) => {
        const text = describeReport(report);
        if (text !== null) setProblem(text);
      },
    });
    let left = false;
    host.start();
    host.followEvents();
    const stopCounting = host.onChange(() => setCount(host.frames().length));
    const unregister = registerDesk({ show: (opened) => show(host, opened) });
    restore(host, () => left).catch((error: unknown) => setProblem(describeError(error)));
    return () => {
      left = true;
      unregister();
      stopCounting();
      host.stop();
      // Only this page's frames go: the windows stay open on the server for the next visit.
      for (const frame of host.frames()) host.remove(frame.wid);
    };
  }, []);

  return (
    <aside className={`desk${count === 0 ? " empty" : ""}`} aria-label="App windows">
      {problem !== null && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <div className="desk-frames" ref={framesRef} />
      <div className="desk-dock" ref={dockRef} aria-label="Minimised windows" />
    </aside>
  );
}
