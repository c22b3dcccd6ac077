// The names an app project is generated with: its slug (the app.json rule), the handle of its
// bundled executa and the name of its skill.
import { APP_SLUG_PATTERN } from "@anna-ai/app-schema";
import { defaultToolId, SLUG_MAX_CHARS, slugProblem, suggestSlug } from "../executa-init/names.js";

/** Why the slug cannot be an app.json slug (L5172), or undefined when it can. */
export function appSlugProblem(slug: string): string | undefined {
  if (APP_SLUG_PATTERN.test(slug)) return undefined;
  return "is not a valid app slug (3–80 of a-z 0-9 -, starting and ending with a letter or digit)";
}

/** A valid app slug close to any name (`My_App` → `my-app`), for "pass --slug …" hints. */
export function suggestAppSlug(raw: string): string | undefined {
  const guess = suggestSlug(raw);
  return guess !== undefined && appSlugProblem(guess) === undefined ? guess : undefined;
}

/**
 * The `bundled_executas` handle, which is also the executa's folder and `executa init` slug. The
 * app slug itself whenever it is a valid executa slug (the quickstart's `executas/focus-flow/`);
 * otherwise made one: dashes collapsed, an `app-` prefix when it starts with a digit (the Python
 * module is named after it), cut to the executa slug limit.
 */
export function executaHandle(slug: string): string {
  if (slugProblem(slug) === undefined) return slug;
  let handle = slug.replace(/-+/g, "-");
  if (!/^[a-z]/.test(handle)) handle = `app-${handle}`;
  return handle.slice(0, SLUG_MAX_CHARS).replace(/-+$/, "");
}

/** R166's default, for the handle: `tool-dev-<handle>` (the quickstart's `tool-dev-focus-flow`). */
export function appToolId(handle: string): string {
  return defaultToolId(handle);
}

/** The bundled skill's name and folder (the Focus Flow example's `focus-coach`). */
export function skillName(handle: string): string {
  return `${handle}-guide`;
}

/** `focus-flow` → `Focus Flow`; runs of dashes count as one (`a--b` → `A B`). */
export function appDisplayName(slug: string): string {
  return slug
    .split(/-+/)
    .filter((word) => word !== "")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}
