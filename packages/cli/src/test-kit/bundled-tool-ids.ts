import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bundledExecutasOf, type AppListing } from "@anna-ai/app-schema";

/**
 * `bundled:<handle>` → `tool_id`, read the way `anna-app dev` reads it (real-world-plugins.md,
 * "Apps"): `app.json` `bundled_executas` names each handle's folder, and that folder's
 * `executa.json` carries the `tool_id`. A project without `app.json`, a handle without a
 * readable `executa.json` or without a `tool_id` is skipped: tests then see the handle
 * unresolved, as the dev harness would warn and carry on.
 */
export function readBundledToolIds(projectDir: string): Record<string, string> {
  return toolIdsOf(projectDir, readAppListing(projectDir));
}

/** The project's `app.json` as a plain object, or undefined when absent or unreadable. */
export function readAppListing(projectDir: string): Record<string, unknown> | undefined {
  const listing = readJson(join(projectDir, "app.json"));
  return typeof listing === "object" && listing !== null && !Array.isArray(listing)
    ? (listing as Record<string, unknown>)
    : undefined;
}

function toolIdsOf(
  projectDir: string,
  listing: Record<string, unknown> | undefined,
): Record<string, string> {
  if (listing === undefined) return {};
  const out: Record<string, string> = {};
  for (const [handle, entry] of bundledExecutasOf(
    listing as Pick<AppListing, "bundled_executas">,
  )) {
    // Read raw, not parsed: an entry may be anything in a hand-written app.json.
    const path: unknown =
      typeof entry === "object" && entry !== null ? (entry as { path?: unknown }).path : undefined;
    const folder = typeof path === "string" && path !== "" ? path : join("executas", handle);
    const executa = readJson(join(projectDir, folder, "executa.json"));
    const toolId =
      typeof executa === "object" && executa !== null
        ? (executa as Record<string, unknown>)["tool_id"]
        : undefined;
    if (typeof toolId === "string" && toolId !== "") out[handle] = toolId;
  }
  return out;
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    // Real projects commit JSON with a UTF-8 BOM (real-world-plugins.md).
    return JSON.parse(text.replace(/^\uFEFF/, "")) as unknown;
  } catch {
    return undefined;
  }
}
