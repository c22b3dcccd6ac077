// The first two steps of every file validator: the parsed document must be an object (a JSON
// object, a YAML mapping), then match its schema with no `__proto__` key anywhere.
import type { z } from "zod";
import { type AppIssue, type AppValidation, appIssue } from "./issues.js";
import { protoKeyIssues } from "./proto-keys.js";
import { fromZodIssues } from "./zod-issues.js";

/** An object that is not an array: what a JSON file or YAML block must hold at its root. */
export function isDocumentObject(raw: unknown): raw is object {
  return typeof raw === "object" && raw !== null && !Array.isArray(raw);
}

/** The failed validation of a document whose root is not an object: one error at the root. */
export function notAnObject(code: string, message: string): AppValidation<never> {
  return { ok: false, issues: [appIssue("error", code, [], message)] };
}

/** Schema issues then `__proto__` keys, or the parsed value when there are neither. */
export function parseDocument<S extends z.ZodType>(
  schema: S,
  raw: object,
): { ok: true; data: z.output<S> } | { ok: false; issues: AppIssue[] } {
  const parsed = schema.safeParse(raw, { reportInput: true });
  const protoKeys = protoKeyIssues(raw);
  if (!parsed.success || protoKeys.length > 0) {
    return {
      ok: false,
      issues: [...(parsed.success ? [] : fromZodIssues(parsed.error.issues)), ...protoKeys],
    };
  }
  return { ok: true, data: parsed.data };
}
