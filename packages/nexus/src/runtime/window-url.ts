// Where a window's frame loads its bundle: `/anna-apps/{slug}/{version}/{entry}?wid=…&t=…`
// (L5501), the route app-bundles.ts serves. The token was minted a moment ago by this server, so
// its claims name the app (numeric id) and the version; the slug and the entry come from the
// registry. Relative, because the origin a browser uses is the request's. A mobile container gets
// the view's `mobile_entry` when the app declares `"mobile"` (L6854); otherwise the bundle's entry.
import type { WindowUrl } from "@anna-ai/app-core/http";
import { bundleEntryFile, formFactorsOf, type FormFactor } from "@anna-ai/app-schema";
import { decodeJwt } from "jose";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.js";
import { rowId } from "./sql-app-catalog.js";

export function bundleWindowUrl(db: Kysely<Database>): WindowUrl {
  return async (windowUuid, token, context = {}) => {
    const { app_id: appClaim, version_id: versionClaim } = decodeJwt(token);
    const appId = rowId(String(appClaim));
    const version = String(versionClaim);
    const row =
      appId === undefined
        ? undefined
        : await db
            .selectFrom("apps")
            .innerJoin("app_versions", "app_versions.app_id", "apps.id")
            .leftJoin("app_bundles", (join) =>
              join
                .onRef("app_bundles.version_id", "=", "app_versions.id")
                .on("app_bundles.status", "=", "ready"),
            )
            .select(["apps.slug", "app_versions.manifest", "app_bundles.entry_path"])
            .where("apps.id", "=", appId)
            .where("app_versions.version", "=", version)
            .orderBy("app_bundles.id", "desc")
            .executeTakeFirst();
    // A window only opens for an app version that exists; the id stays a usable fallback.
    const slug = row?.slug ?? String(appClaim);
    const mobile =
      row && context.formFactor === "mobile" && context.view !== undefined
        ? mobileEntry(row.manifest, context.view)
        : undefined;
    const entry = row
      ? bundleEntryFile(mobile ?? row.entry_path ?? manifestEntry(row.manifest))
      : "";
    const path = [slug, version].map((p) => encodeURIComponent(p)).join("/");
    const query = `wid=${encodeURIComponent(windowUuid)}&t=${encodeURIComponent(token)}`;
    return `/anna-apps/${path}/${entry.split("/").map(encodeURIComponent).join("/")}?${query}`;
  };
}

function manifestEntry(manifest: string): string | undefined {
  try {
    const entry = (JSON.parse(manifest) as { ui?: { bundle?: { entry?: unknown } } }).ui?.bundle
      ?.entry;
    return typeof entry === "string" ? entry : undefined;
  } catch {
    return undefined;
  }
}

/** The view's `mobile_entry`, when the manifest declares the mobile form factor. */
function mobileEntry(manifest: string, view: string): string | undefined {
  try {
    const ui = (
      JSON.parse(manifest) as {
        ui?: {
          form_factors?: FormFactor[] | null;
          views?: { name?: unknown; mobile_entry?: unknown }[];
        };
      }
    ).ui;
    if (!ui || !formFactorsOf(ui).includes("mobile")) return undefined;
    const entry = ui.views?.find((v) => v.name === view)?.mobile_entry;
    return typeof entry === "string" && entry !== "" ? entry : undefined;
  } catch {
    return undefined;
  }
}
