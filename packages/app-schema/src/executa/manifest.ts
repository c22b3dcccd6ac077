import { z } from "zod";

/**
 * The `describe` result (T5, R21, L843–L924), parsed liberally: real manifests have no `name`
 * (H16), give `parameters` as an array or a JSON-Schema object, and carry keys we do not know.
 */

/** Parameter types the protocol documents (T6). Manifests may use others; the host warns. */
export const TOOL_PARAMETER_TYPES = Object.freeze([
  "string",
  "integer",
  "number",
  "boolean",
  "array",
  "object",
] as const);
export type ToolParameterType = (typeof TOOL_PARAMETER_TYPES)[number];

/** Per-tool invoke timeout when `tools[].timeout` is absent (T7). */
export const DEFAULT_TOOL_TIMEOUT_S = 60;

export const ToolParameterSchema = z.looseObject({
  name: z.string().min(1),
  /** Missing or unknown types become `string` with a warning (`toLlmToolSchema`). */
  type: z.string().nullish(),
  description: z.string().nullish(),
  /** Defaults to `true` (T6). */
  required: z.boolean().nullish(),
  default: z.unknown().nullish(),
  enum: z.array(z.unknown()).nullish(),
  /** JSON Schema element type for arrays (a bare type name is read as `{type}`)… */
  items: z.union([z.looseObject({ type: z.string().nullish() }), z.string()]).nullish(),
  /** …or the protocol shorthand. Neither means a list of strings (T6, R22). */
  items_type: z.string().nullish(),
});
export type ToolParameter = z.infer<typeof ToolParameterSchema>;

/** `parameters` given as a JSON-Schema object instead of a list (real-world-plugins.md). */
export const JsonSchemaParametersSchema = z.looseObject({
  type: z.literal("object").nullish(),
  properties: z.record(z.string(), z.unknown()).nullish(),
  required: z.array(z.string()).nullish(),
});
export type JsonSchemaParameters = z.infer<typeof JsonSchemaParametersSchema>;

export const ToolDefinitionSchema = z.looseObject({
  name: z.string().min(1),
  /** The prompt the LLM reads to pick the tool. */
  description: z.string().nullish(),
  parameters: z.union([z.array(ToolParameterSchema), JsonSchemaParametersSchema]).nullish(),
  /** MCP style; ignored by the platform (pitfall 4). Kept so the host can warn. */
  input_schema: z.record(z.string(), z.unknown()).nullish(),
  /** Seconds; default `DEFAULT_TOOL_TIMEOUT_S`, also used for a non-positive value (warned). */
  timeout: z.number().nullish(),
  /** Reserved. */
  streaming: z.boolean().nullish(),
  /** The platform adds an optional `account` argument to the tool (R70). */
  multi_account: z.boolean().nullish(),
});
export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;

export const CredentialDeclarationSchema = z.looseObject({
  /** Key under `context.credentials`; UPPER_SNAKE_CASE by convention. */
  name: z.string().min(1),
  display_name: z.string().nullish(),
  description: z.string().nullish(),
  /** Defaults to `true` (T14). */
  required: z.boolean().nullish(),
  /** Defaults to `true` (T14). */
  sensitive: z.boolean().nullish(),
  /** Pre-fill; ignored for sensitive credentials. */
  default: z.string().nullish(),
});
export type CredentialDeclaration = z.infer<typeof CredentialDeclarationSchema>;
/** The Reference's name for the same thing (R64). */
export const CredentialSchema = CredentialDeclarationSchema;
export type CredentialSchema = CredentialDeclaration;
export type Credential = CredentialDeclaration;

export const RuntimeHintsSchema = z.looseObject({
  type: z.string().nullish(),
  min_version: z.string().nullish(),
});
export type RuntimeHints = z.infer<typeof RuntimeHintsSchema>;

export const ExecutaManifestSchema = z.looseObject({
  /** Optional label (H16); identity is the `tool_id`. */
  name: z.string().nullish(),
  display_name: z.string().nullish(),
  version: z.string().nullish(),
  description: z.string().nullish(),
  author: z.string().nullish(),
  homepage: z.string().nullish(),
  icon: z.string().nullish(),
  category: z.string().nullish(),
  license: z.string().nullish(),
  tools: z.array(ToolDefinitionSchema),
  credentials: z.array(CredentialDeclarationSchema).nullish(),
  runtime: RuntimeHintsSchema.nullish(),
  /** Reverse-RPC families the plugin uses; see `HOST_CAPABILITIES`. Kept as strings so the host can warn on unknown ones. */
  host_capabilities: z.array(z.string()).nullish(),
});
export type ExecutaManifest = z.infer<typeof ExecutaManifestSchema>;

/** A credential declaration with the documented defaults applied. */
export interface NormalizedCredential {
  name: string;
  display_name: string;
  description: string;
  required: boolean;
  sensitive: boolean;
  default?: string;
}

export function normalizeCredential(credential: CredentialDeclaration): NormalizedCredential {
  const sensitive = credential.sensitive ?? true;
  return {
    name: credential.name,
    display_name: credential.display_name ?? credential.name,
    description: credential.description ?? "",
    required: credential.required ?? true,
    sensitive,
    // A default on a sensitive credential is ignored (R64).
    ...(typeof credential.default === "string" && !sensitive
      ? { default: credential.default }
      : {}),
  };
}

/** Per-tool timeout in milliseconds with the default applied. */
export function toolTimeoutMs(tool: Pick<ToolDefinition, "timeout">): number {
  const timeout = tool.timeout;
  return (typeof timeout === "number" && timeout > 0 ? timeout : DEFAULT_TOOL_TIMEOUT_S) * 1000;
}
