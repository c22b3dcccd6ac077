// Which container the dashboard is (L6824): below MOBILE_MAX_WIDTH the mobile form factor (the
// chat full width, each app window a full-screen sheet over it), else the desktop one (floating
// windows beside the chat). The same breakpoint as the stylesheets' `max-width: 40rem`.
import { useSyncExternalStore } from "react";

export type FormFactor = "desktop" | "mobile";

export const MOBILE_MEDIA_QUERY = "(max-width: 40rem)";

const media = (): MediaQueryList => window.matchMedia(MOBILE_MEDIA_QUERY);

export function currentFormFactor(): FormFactor {
  return media().matches ? "mobile" : "desktop";
}

function subscribe(onChange: () => void): () => void {
  const list = media();
  list.addEventListener("change", onChange);
  return () => list.removeEventListener("change", onChange);
}

/** The form factor, re-rendering when the viewport crosses the breakpoint. */
export function useFormFactor(): FormFactor {
  return useSyncExternalStore(subscribe, currentFormFactor);
}
