import { z } from "zod";

/**
 * Lengths are counted in code points, as the platform's Python validators count (`len`) and as
 * JSON Schema's `maxLength` counts; JS `.length` would count an emoji twice (inventory X52).
 */
export function codePointLength(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** A string of `min`–`max` code points; the bounds are also emitted into the JSON Schema. */
export function boundedString(min: number, max: number): z.ZodString {
  return z
    .string()
    .check((ctx) => {
      const length = codePointLength(ctx.value);
      if (length < min) {
        ctx.issues.push({
          code: "custom",
          input: ctx.value,
          message:
            min === 1
              ? "must not be empty"
              : `must have at least ${min} characters (has ${length})`,
          params: { code: "schema.too_small" },
        });
      } else if (length > max) {
        ctx.issues.push({
          code: "custom",
          input: ctx.value,
          message: `must have at most ${max} characters (has ${length})`,
          params: { code: "schema.too_big" },
        });
      }
    })
    .meta(min > 0 ? { minLength: min, maxLength: max } : { maxLength: max });
}

/** Values quoted in messages are cut to this many characters, so a 10 MB field stays one line. */
export const QUOTE_MAX_CHARS = 80;

/** `"value"` for messages: JSON-quoted, cut to `QUOTE_MAX_CHARS` code points with an ellipsis. */
export function quote(value: unknown): string {
  if (typeof value !== "string") return JSON.stringify(value) ?? String(value);
  if (value.length <= QUOTE_MAX_CHARS) return JSON.stringify(value);
  // 2 units per code point at most, so this slice holds more than the limit whenever the value does.
  const points = Array.from(value.slice(0, QUOTE_MAX_CHARS * 2 + 2));
  return points.length <= QUOTE_MAX_CHARS
    ? JSON.stringify(value)
    : JSON.stringify(`${points.slice(0, QUOTE_MAX_CHARS - 1).join("")}…`);
}
