// Opening an app's window from anywhere on the page (My apps, the chat's activated-apps line):
// the server opens it (so it is the server's window, restored after a reload), then the desk
// beside the chat shows it. The desk lives on the chat page and is loaded with it; away from the
// chat there is no desk, so the page goes to the chat, whose desk lists the server's windows and
// shows the new one with the others. This file has no window-host code: My apps is in the first
// page load.
import { useMutation } from "@tanstack/react-query";
import { type OpenWindowOptions, type OpenedAppWindow, openAppWindow } from "../api/windows";
import { navigate } from "../router";

/** What the mounted desk offers the rest of the page. */
export interface Desk {
  /** Puts a window the server just opened on the desk (focused; a reused one flashes). */
  show(opened: OpenedAppWindow): void;
}

let mounted: Desk | null = null;

/** The desk says it is on the page; the returned function says it left. */
export function registerDesk(desk: Desk): () => void {
  mounted = desk;
  return () => {
    if (mounted === desk) mounted = null;
  };
}

export interface OpenRequest extends OpenWindowOptions {
  appId: number | string;
}

export function useOpenAppWindow() {
  return useMutation({
    mutationFn: ({ appId, ...options }: OpenRequest) => openAppWindow(appId, options),
    onSuccess: (opened) => {
      if (mounted) mounted.show(opened);
      else navigate("/chat");
    },
  });
}
