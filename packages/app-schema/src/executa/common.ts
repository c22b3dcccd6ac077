import { z } from "zod";

/**
 * Pieces shared by the reverse-RPC families. Every reverse request may carry
 * `metadata.executa_invoke_id` (or `metadata.invoke_id`), `metadata.tool` and, from newer
 * SDKs, `context.invoke_id` (T12, real-world-plugins.md).
 */
export const ReverseMetadataSchema = z.looseObject({
  executa_invoke_id: z.string().nullish(),
  invoke_id: z.string().nullish(),
  tool: z.string().nullish(),
});
export type ReverseMetadata = z.infer<typeof ReverseMetadataSchema>;

export const ReverseContextSchema = z.looseObject({ invoke_id: z.string().nullish() });
export type ReverseContext = z.infer<typeof ReverseContextSchema>;

/**
 * Keys every reverse-RPC params object may carry for correlation. `metadata` is also where
 * `storage/set`, `files/upload_begin` and `host/uploadFile` take the caller's own metadata, so
 * unknown keys pass through; services drop `executa_invoke_id`, `invoke_id` and `tool` before
 * storing it.
 */
export const reverseCorrelationShape = {
  metadata: ReverseMetadataSchema.nullish(),
  context: ReverseContextSchema.nullish(),
} as const;

/** MCP-style model hints (sampling, agent, image). */
export const ModelPreferencesSchema = z.looseObject({
  hints: z.array(z.looseObject({ name: z.string().nullish() })).nullish(),
  costPriority: z.number().nullish(),
  speedPriority: z.number().nullish(),
  intelligencePriority: z.number().nullish(),
});
export type ModelPreferences = z.infer<typeof ModelPreferencesSchema>;

/** SDK-side wall clock the Python SDK sends with sampling, image and upload calls. */
export const ClientTimeoutSchema = z.number().nonnegative();

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * The invoke a reverse request belongs to: `context.invoke_id`, then
 * `metadata.executa_invoke_id`, `metadata.invoke_id`, then a top-level `invoke_id`. Empty
 * strings count as absent (the SDKs send `""` outside an invoke). The host then applies T12.
 */
export function reverseInvokeId(params: unknown): string | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const record = params as Record<string, unknown>;
  const context = record["context"];
  const metadata = record["metadata"];
  const fromContext =
    typeof context === "object" && context !== null
      ? nonEmpty((context as Record<string, unknown>)["invoke_id"])
      : undefined;
  const meta =
    typeof metadata === "object" && metadata !== null
      ? (metadata as Record<string, unknown>)
      : undefined;
  return (
    fromContext ??
    nonEmpty(meta?.["executa_invoke_id"]) ??
    nonEmpty(meta?.["invoke_id"]) ??
    nonEmpty(record["invoke_id"])
  );
}
