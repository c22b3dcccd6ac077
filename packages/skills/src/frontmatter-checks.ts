import {
  type AppIssue,
  normalizeSkillMetadata,
  SKILL_METADATA_NAMESPACES,
  SKILL_NAME_PATTERN,
  validateSkillFrontmatter,
} from "@anna-ai/app-schema";
import { validateCleanFrontmatter } from "./frontmatter-fast.js";
import type { IssueSink } from "./issues.js";
import type { SkillFrontmatter, SkillMetadata, SkillRecipe } from "./types.js";

/**
 * The frontmatter rules (S2–S10, S22, X1–X6) are `@anna-ai/app-schema`'s
 * `validateSkillFrontmatter`: one validator for the loader, `anna-app validate` and the server.
 * This file only adapts its result to the loader's shapes (every list present, issues with
 * lines). The one shortcut, `validateCleanFrontmatter`, decides nothing of its own: it answers
 * only for frontmatter that validator passes without an issue, and a property test holds it there.
 */

export { SKILL_NAME_PATTERN };
/** S5: the first of these present in `metadata` wins. */
export const METADATA_NAMESPACES = SKILL_METADATA_NAMESPACES;

export interface CheckedFrontmatter {
  frontmatter: SkillFrontmatter;
  metadata: SkillMetadata;
}

export interface CheckOptions {
  /** The skill folder's name: the `name` when the frontmatter has none (X1). */
  fallbackName?: string;
}

export function checkFrontmatter(
  data: Record<string, unknown>,
  sink: IssueSink,
  options: CheckOptions = {},
): CheckedFrontmatter | undefined {
  const dirName =
    options.fallbackName !== undefined && options.fallbackName !== ""
      ? options.fallbackName
      : undefined;
  // Clean frontmatter (no issue to report) skips zod; anything else takes the full validator.
  let value = validateCleanFrontmatter(data, dirName);
  if (value === undefined) {
    const result = validateSkillFrontmatter(data, dirName !== undefined ? { dirName } : {});
    for (const issue of result.issues) report(sink, issue);
    if (!result.ok || result.value === undefined) return undefined;
    value = result.value;
  }

  const frontmatter: SkillFrontmatter = {
    name: value.name,
    description: value.description,
    raw: data,
  };
  if (value.version !== undefined) frontmatter.version = value.version;
  if (value.author !== undefined) frontmatter.author = value.author;
  if (value.title !== undefined) frontmatter.title = value.title;

  const m = value.metadata;
  const requires = value.requires;
  const metadata: SkillMetadata = {
    always: value.always,
    execution_mode: value.executionMode,
    requires: {
      bins: [...(requires?.bins ?? [])],
      any_bins: [...(requires?.any_bins ?? [])],
      env: [...(requires?.env ?? [])],
      config: [...(requires?.config ?? [])],
      python_packages: [...(requires?.python_packages ?? [])],
    },
    install: value.install.map(toRecipe),
    uninstall: value.uninstall.map(toRecipe),
  };
  if (m.skill_key != null) metadata.skill_key = m.skill_key;
  for (const key of ["primary_env", "emoji", "homepage", "category_name"] as const) {
    const field = m[key];
    if (field != null) metadata[key] = field;
  }
  if (m.os != null) metadata.os = [...m.os];
  if (m.parameters != null) metadata.parameters = m.parameters;
  // The Reference page's `metadata.dependencies` (X3): not a recognised field (warned about),
  // but when it is a list of strings it is still shown with the body, as that page promises.
  const deps: unknown = (m as Record<string, unknown>)["dependencies"];
  if (Array.isArray(deps) && deps.every((d) => typeof d === "string")) {
    metadata.dependencies = deps;
  }
  const namespace = normalizeSkillMetadata(data["metadata"]).namespace;
  if (namespace !== undefined) metadata.namespace = namespace;
  return { frontmatter, metadata };
}

function toRecipe(recipe: {
  kind: SkillRecipe["kind"];
  id?: string | null;
  formula?: string | null;
  package?: string | null;
  command?: string | null;
  bins?: string[] | null;
  os?: string[] | null;
  label?: string | null;
}): SkillRecipe {
  const out: SkillRecipe = { kind: recipe.kind };
  for (const key of ["id", "formula", "package", "command", "label"] as const) {
    const value = recipe[key];
    if (value != null) out[key] = value;
  }
  if (recipe.bins != null) out.bins = [...recipe.bins];
  if (recipe.os != null) out.os = [...recipe.os];
  return out;
}

function report(sink: IssueSink, issue: AppIssue): void {
  if (issue.severity === "error") sink.error(issue.code, issue.message, issue.path);
  else sink.warn(issue.code, issue.message, issue.path);
  if (issue.specMessage !== undefined) {
    const list = issue.severity === "error" ? sink.errors : sink.warnings;
    const last = list[list.length - 1];
    if (last !== undefined) last.specMessage = issue.specMessage;
  }
}
