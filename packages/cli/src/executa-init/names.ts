// Slugs and tool ids `executa init` accepts, and the names derived from a slug.

/** kebab-case: lowercase letters and digits in dash-separated words, starting with a letter. */
export const SLUG_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
export const SLUG_MAX_CHARS = 64;
/**
 * A tool id becomes a `[project.scripts]` key, a `bin` name and a shim file name, so it keeps to
 * characters that are safe in all three (minted ids look like `tool-<handle>-<slug>-<uniq>`).
 */
export const TOOL_ID_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;
export const TOOL_ID_MAX_CHARS = 128;

/** Why the slug is not acceptable, or undefined when it is. */
export function slugProblem(slug: string): string | undefined {
  if (slug.length === 0) return "is empty";
  if (slug.length > SLUG_MAX_CHARS) return `is longer than ${SLUG_MAX_CHARS} characters`;
  if (!SLUG_PATTERN.test(slug)) {
    return "is not kebab-case (lowercase letters and digits in words joined by '-', starting with a letter)";
  }
  return undefined;
}

export function toolIdProblem(toolId: string): string | undefined {
  if (toolId.length === 0) return "is empty";
  if (toolId.length > TOOL_ID_MAX_CHARS) return `is longer than ${TOOL_ID_MAX_CHARS} characters`;
  if (!TOOL_ID_PATTERN.test(toolId)) {
    return "may only hold lowercase letters, digits, '-', '_' and '.', starting with a letter or digit";
  }
  return undefined;
}

/** A kebab-case guess from any name (`My_Tool 2` → `my-tool-2`), for "did you mean" hints. */
export function suggestSlug(raw: string): string | undefined {
  const guess = raw
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^[^a-z]+/, "")
    .replace(/-+$/, "")
    .slice(0, SLUG_MAX_CHARS)
    .replace(/-+$/, "");
  return guess !== "" && slugProblem(guess) === undefined ? guess : undefined;
}

/** R166: the tool id when --tool-id is not given. */
export function defaultToolId(slug: string): string {
  return `tool-dev-${slug}`;
}

/** The Python module of the plugin: `my-tool` → `my_tool_plugin` (a `*_plugin.py` file). */
export function pythonModule(slug: string): string {
  return `${slug.replace(/-/g, "_")}_plugin`;
}

/** `my-tool` → `My Tool`. */
export function displayName(slug: string): string {
  return slug
    .split("-")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}
