// T6: an executa tool's declared parameters as the JSON Schema a model sees. The conversion is
// app-schema's `toLlmToolSchema` (also used by `anna-app validate` and executa-test), so the
// agent, the validator and the contract tests agree on every rule: `required` defaults to true,
// `items`/`items_type`, arrays without either become string lists, `input_schema` is ignored.

import {
  type LlmToolSchema,
  type ManifestWarning,
  type ToolDefinition,
  toLlmToolSchema,
} from "@anna-ai/app-schema";

export type { LlmToolSchema };

/** The JSON Schema object of a tool's arguments. */
export function toolJsonSchema(tool: ToolDefinition): LlmToolSchema {
  return toLlmToolSchema(tool).schema;
}

/** The same, with what was guessed or ignored (unknown types, arrays without items, `input_schema`). */
export function toolJsonSchemaWithWarnings(tool: ToolDefinition): {
  schema: LlmToolSchema;
  warnings: ManifestWarning[];
} {
  return toLlmToolSchema(tool);
}
