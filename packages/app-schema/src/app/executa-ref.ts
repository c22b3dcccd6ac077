import { z } from "zod";
import { boundedString } from "./text.js";

/**
 * An entry of `required_executas` / `optional_executas` (L4977–L4985): `{tool_id, min_version?,
 * version?}`, strict like the rest of the manifest. A bare string is accepted as shorthand for
 * `{tool_id}` (real-world manifests write `"bundled:<handle>"` that way); the validator warns.
 */

export const EXECUTA_REF_TOOL_ID_MAX_CHARS = 200;
export const EXECUTA_REF_MIN_VERSION_MAX_CHARS = 40;
/** `version: "latest"` (or no `version`) freezes the executa's state at publish (L4985). */
export const EXECUTA_REF_LATEST = "latest";

export const ExecutaRefObjectSchema = z.strictObject({
  tool_id: boundedString(1, EXECUTA_REF_TOOL_ID_MAX_CHARS),
  /** Stored, never enforced (L4984). */
  min_version: boundedString(0, EXECUTA_REF_MIN_VERSION_MAX_CHARS).nullish(),
  /** Pins an `ExecutaVersion`; format unspecified (X17), so any non-empty string. */
  version: z.string().min(1).nullish(),
});
export type ExecutaRefObject = z.infer<typeof ExecutaRefObjectSchema>;

export const ExecutaRefSchema = z.union([
  boundedString(1, EXECUTA_REF_TOOL_ID_MAX_CHARS),
  ExecutaRefObjectSchema,
]);
export type ExecutaRef = z.infer<typeof ExecutaRefSchema>;

/** The one shape callers work with: the string shorthand becomes `{tool_id}`. */
export function normalizeExecutaRef(ref: ExecutaRef): ExecutaRefObject {
  return typeof ref === "string" ? { tool_id: ref } : ref;
}
