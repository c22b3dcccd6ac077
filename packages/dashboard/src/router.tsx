// A hand router of a dozen lines instead of React Router: the dashboard has a handful of flat
// routes, and React Router 8 needs Node 22 to build (D-host-141). Paths are
// real URLs (history API), so Nexus answers any of them with index.html and a reload lands on
// the same page.
import {
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useSyncExternalStore,
} from "react";

export { matchPath } from "./match-path";

const NAVIGATE_EVENT = "anna:navigate";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("popstate", onChange);
  window.addEventListener(NAVIGATE_EVENT, onChange);
  return () => {
    window.removeEventListener("popstate", onChange);
    window.removeEventListener(NAVIGATE_EVENT, onChange);
  };
}

const currentLocation = () => window.location.pathname + window.location.search;

/** The current path and query (`/store?q=notes`), re-rendering on every navigation. */
export function useLocation(): { pathname: string; search: URLSearchParams } {
  const href = useSyncExternalStore(subscribe, currentLocation);
  const url = new URL(href, window.location.origin);
  return { pathname: url.pathname, search: url.searchParams };
}

/** Goes to `to` without a page load; `replace` keeps the history entry count. */
export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) window.history.replaceState(null, "", to);
  else window.history.pushState(null, "", to);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
  // A new page starts at its top, and keyboard users start at its heading.
  window.scrollTo(0, 0);
  queueMicrotask(() => document.querySelector<HTMLElement>("main h1")?.focus());
}

/** An `<a href>` that navigates in the page; modified clicks (new tab) stay the browser's. */
export function Link(
  props: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string; children: ReactNode },
) {
  const { to, onClick, ...rest } = props;
  const handle = useCallback(
    (e: MouseEvent<HTMLAnchorElement>) => {
      onClick?.(e);
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey)
        return;
      e.preventDefault();
      navigate(to);
    },
    [to, onClick],
  );
  const here = useLocation().pathname === to;
  return <a {...rest} href={to} onClick={handle} aria-current={here ? "page" : undefined} />;
}
