// The few shared bits every page shows: a loading line, an error announced to screen readers,
// and a page heading that takes focus after navigation (router.tsx).
import type { ReactNode } from "react";
import { describeError } from "../api/client";

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

export function ErrorNote({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  return (
    <p className="error" role="alert">
      {describeError(error)}
    </p>
  );
}

export function PageTitle({ children }: { children: ReactNode }) {
  return <h1 tabIndex={-1}>{children}</h1>;
}

export function formatDate(iso: string | null): string {
  return iso === null ? "—" : new Date(iso).toLocaleString();
}
