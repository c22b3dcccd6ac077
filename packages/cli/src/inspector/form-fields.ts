// The argument form of each tool, from its declared parameters as the LLM would see them
// (`toLlmToolSchema`: a `parameters: [...]` list and a JSON-Schema object read the same way), so
// the page renders plain field descriptions and never interprets a manifest itself.
import { toLlmToolSchema, type ExecutaManifest, type ToolDefinition } from "@anna-ai/app-schema";

export type FieldType = "string" | "number" | "integer" | "boolean" | "array" | "object" | "any";

export interface FormField {
  name: string;
  type: FieldType;
  required: boolean;
  description: string;
  /** Allowed values: the page shows a select. */
  enum?: unknown[];
  default?: unknown;
  /** For arrays: the declared item type, shown as a hint. */
  items?: string;
}

export interface ToolView {
  name: string;
  description: string;
  fields: FormField[];
  /** What the manifest says that the form could not use (e.g. input_schema ignored). */
  warnings: string[];
}

const FIELD_TYPES = new Set<string>(["string", "number", "integer", "boolean", "array", "object"]);

export function toolViews(manifest: ExecutaManifest): ToolView[] {
  return manifest.tools.map((tool) => toolView(tool));
}

export function toolView(tool: ToolDefinition): ToolView {
  const { schema, warnings } = toLlmToolSchema(tool);
  const required = new Set(schema.required);
  const fields = Object.entries(schema.properties).map(([name, property]) =>
    formField(name, property, required.has(name)),
  );
  return {
    name: tool.name,
    description: typeof tool.description === "string" ? tool.description : "",
    fields,
    warnings: warnings.map((w) => w.message),
  };
}

function formField(name: string, property: Record<string, unknown>, required: boolean): FormField {
  // A list of types (["string", "null"]) is the first non-null one; anything else is free JSON.
  const declared = Array.isArray(property.type)
    ? (property.type as unknown[]).find((t) => t !== "null")
    : property.type;
  const type: FieldType =
    typeof declared === "string" && FIELD_TYPES.has(declared) ? (declared as FieldType) : "any";
  const field: FormField = {
    name,
    type,
    required,
    description: typeof property.description === "string" ? property.description : "",
  };
  if (Array.isArray(property.enum) && property.enum.length > 0) field.enum = property.enum;
  if (property.default !== undefined) field.default = property.default;
  if (type === "array") {
    const items = property.items as { type?: unknown } | undefined;
    if (typeof items?.type === "string") field.items = items.type;
  }
  return field;
}
