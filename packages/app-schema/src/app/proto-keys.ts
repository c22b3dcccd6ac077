import { type AppIssue, appIssue } from "./issues.js";

/**
 * JSON may carry a key named `__proto__`; JavaScript object building (zod records included)
 * drops it silently, so a grant or directive spelled that way would vanish without a word.
 * Reported as an error wherever it appears. Iterative, so deep nesting cannot overflow.
 */
export function protoKeyIssues(raw: unknown): AppIssue[] {
  const out: AppIssue[] = [];
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: raw, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() ?? { value: undefined, path: [] };
    if (typeof value !== "object" || value === null) continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], path: [...path, i] });
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] ?? "";
      if (key === "__proto__") {
        out.push(
          appIssue(
            "error",
            "schema.proto_key",
            [...path, key],
            'a key named "__proto__" is not accepted: JavaScript parsers drop it; rename it',
          ),
        );
        continue;
      }
      stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
  return out;
}
