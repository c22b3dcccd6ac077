import { APP_MANIFEST_KEYS, type AppManifest, AppManifestSchema } from "./manifest.js";
import { ExecutaRefObjectSchema } from "./executa-ref.js";
import { hostApiRules } from "./host-api-rules.js";
import { type AppIssue, type AppValidation, hasErrors } from "./issues.js";
import { devBlockRules, manifestRules } from "./manifest-rules.js";
import { isDocumentObject, notAnObject } from "./parse-document.js";
import { protoKeyIssues } from "./proto-keys.js";
import { UiBundleSchema } from "./ui-bundle.js";
import { uiSectionRules } from "./ui-rules.js";
import { UiSectionSchema } from "./ui-section.js";
import { UiViewSchema } from "./ui-view.js";
import { fromZodIssues } from "./zod-issues.js";

/**
 * `validateAppManifest`: the structure (zod: types, limits, allow-lists, unknown keys), then —
 * once the structure holds, as the platform's layered validator does (L5030–L5039) — the rules
 * that span fields, then warnings for what the platform accepts but is probably a mistake
 * (real-world-plugins.md "More traps").
 */

function knownKeys(path: readonly (string | number)[]): readonly string[] | undefined {
  const key = path.map((segment) => (typeof segment === "number" ? "#" : segment)).join("/");
  switch (key) {
    case "":
      return APP_MANIFEST_KEYS;
    case "required_executas/#":
    case "optional_executas/#":
      return Object.keys(ExecutaRefObjectSchema.shape);
    case "ui":
      return Object.keys(UiSectionSchema.shape);
    case "ui/bundle":
      return Object.keys(UiBundleSchema.shape);
    case "ui/views/#":
      return Object.keys(UiViewSchema.shape);
    case "ui/views/#/min_size":
    case "ui/views/#/default_size":
    case "ui/views/#/max_size":
      return ["w", "h"];
    default:
      return undefined;
  }
}

const UNKNOWN_KEY_NOTE =
  '(manifest.json is parsed with extra="forbid": unknown fields are rejected)';

/** Validates a parsed `manifest.json` (BOM and JSON syntax are the caller's concern). */
export function validateAppManifest(raw: unknown): AppValidation<AppManifest> {
  if (!isDocumentObject(raw)) {
    return notAnObject(
      "schema.invalid_type",
      'manifest.json must hold a JSON object, e.g. {"schema": 1, "required_executas": [{"tool_id": "web_search"}]}',
    );
  }
  const protoKeys = protoKeyIssues(raw);
  const parsed = AppManifestSchema.safeParse(raw, { reportInput: true });
  if (!parsed.success || protoKeys.length > 0) {
    const structural = parsed.success
      ? []
      : fromZodIssues(parsed.error.issues, { knownKeys, unknownKeyNote: UNKNOWN_KEY_NOTE });
    const seen = new Set(structural.map((issue) => issue.pointer));
    return {
      ok: false,
      issues: [...structural, ...protoKeys.filter((issue) => !seen.has(issue.pointer))],
    };
  }
  const manifest = parsed.data;
  const issues: AppIssue[] = [
    ...manifestRules(raw as Record<string, unknown>, manifest),
    ...(manifest.ui === undefined || manifest.ui === null ? [] : uiSectionRules(manifest.ui)),
    ...hostApiRules(manifest),
    ...devBlockRules(manifest),
  ];
  const ok = !hasErrors(issues);
  return ok ? { ok, value: manifest, issues } : { ok, issues };
}
