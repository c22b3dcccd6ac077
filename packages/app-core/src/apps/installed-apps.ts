// The user's installed apps as `apps.*` sees them (R158): a catalogue the host provides, the
// `app_ref` rules (numeric id or `@handle/slug`). The calling app is always installed; a host
// (the dev harness, the server) lists the user's others through `AppsCatalog` (the dispatcher's
// `InstalledAppsResolver`). The pinned deck is deck-store.ts.
import type { AppManifest, InstalledApp } from "@anna-ai/app-schema";
import { HostApiError } from "../errors/host-api-error.js";

export interface AppLaunchRequest {
  userId: string;
  view?: string;
  payload?: unknown;
  conversationSessionUuid: string | null;
  source: string;
}

export interface AppsCatalog {
  /** Installed, enabled apps of `userId`, besides the dispatcher's own app. */
  list(userId: string): Promise<readonly InstalledApp[]> | readonly InstalledApp[];
  /**
   * Opens a window of another app through the host's window runtime (the path of REST
   * `POST /runtime/windows`, which emits `open_view`). Without it only the dispatcher's own app
   * can be launched.
   */
  launch?(app: InstalledApp, request: AppLaunchRequest): Promise<Record<string, unknown>>;
}

/** The dispatcher's own app as a catalogue entry, from its manifest. */
export function selfApp(
  manifest: AppManifest,
  appId: string,
  versionId: string,
  name?: string,
): InstalledApp {
  const named = manifest as { name?: unknown; display_name?: unknown; description?: unknown };
  const title =
    name ??
    (typeof named.display_name === "string" ? named.display_name : undefined) ??
    (typeof named.name === "string" ? named.name : undefined) ??
    appId;
  return {
    app_id: appId,
    slug: appId,
    name: title,
    description: typeof named.description === "string" ? named.description : null,
    version_id: versionId,
    views: (manifest.ui?.views ?? []).map((v) => ({
      name: v.name,
      title: v.title ?? null,
      ...(v.default === true ? { default: true } : {}),
    })),
  };
}

/**
 * `app_ref` (R158): a numeric id (number or digit string) or `@handle/slug`. A bare slug is also
 * accepted (the dev harness has no ids or handles). Unknown → `not_found`.
 */
export function findApp(apps: readonly InstalledApp[], ref: string | number): InstalledApp {
  const text = String(ref).trim();
  const handled = /^@([^/]+)\/(.+)$/.exec(text);
  const found = apps.find((app) =>
    handled === null
      ? app.app_id === text || app.slug === text
      : app.slug === handled[2] && (app.handle ?? null) === handled[1],
  );
  if (found === undefined) {
    throw new HostApiError(
      "not_found",
      `no installed app ${JSON.stringify(ref)}; apps.list shows the installed ones (app_ref is an id or @handle/slug)`,
      { app_ref: ref },
    );
  }
  return found;
}
