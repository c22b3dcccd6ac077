// An MCP tool's `inputSchema` (JSON Schema) as Anna `parameters`. The parameter list (T6) says
// type, description, enum, default, required and an array's element type; a schema that says
// no more than that becomes a list, so the platform and the dev tools show it like any
// plugin's. Anything richer (anyOf/oneOf/allOf/$ref/const/nested object shapes, pattern rules,
// additionalProperties) is not squeezed into the list: the schema is passed through as a
// JSON-Schema `parameters` object, which the platform hands to the model unchanged, so nothing
// the server declared is lost. The server validates its own arguments either way.
import type { ToolParameter } from "@anna-ai/app-schema";

type JsonObject = Record<string, unknown>;

const LIST_TYPES = new Set(["string", "integer", "number", "boolean", "array", "object"]);
/** Keys a property may carry and still be a list entry; their meaning is kept by the mapping. */
const LIST_KEYS = new Set(["type", "description", "enum", "default", "items", "title"]);
/** Keys on the top-level schema that do not change what the arguments are. */
const TOP_LEVEL_KEYS = new Set([
  "type",
  "properties",
  "required",
  "$schema",
  "title",
  "description",
]);

export type MappedParameters =
  | { kind: "list"; parameters: ToolParameter[] }
  | { kind: "schema"; parameters: JsonObject; reason: string };

export class UnmappableSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnmappableSchemaError";
  }
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Throws UnmappableSchemaError only when the schema cannot describe named arguments at all (MCP
 * requires `type: "object"`): such a tool could never be called with an arguments object.
 */
export function mapInputSchema(schema: unknown): MappedParameters {
  if (!isObject(schema) || (schema.type !== undefined && schema.type !== "object")) {
    throw new UnmappableSchemaError(
      `inputSchema must be a JSON Schema of "type": "object" (MCP tools take named arguments), got ${JSON.stringify(isObject(schema) ? schema.type : schema)}`,
    );
  }
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : [],
  );
  const extraTop = Object.keys(schema).find((key) => !TOP_LEVEL_KEYS.has(key));
  if (extraTop !== undefined) return passThrough(schema, `it uses "${extraTop}"`);
  const parameters: ToolParameter[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const mapped = mapProperty(name, property, required.has(name));
    if (typeof mapped === "string") return passThrough(schema, mapped);
    parameters.push(mapped);
  }
  return { kind: "list", parameters };
}

function passThrough(schema: JsonObject, reason: string): MappedParameters {
  return { kind: "schema", parameters: { ...schema, type: "object" }, reason };
}

/** The list entry, or why the property needs the full schema. */
function mapProperty(name: string, property: unknown, required: boolean): ToolParameter | string {
  if (!isObject(property)) return `property "${name}" is not a schema object`;
  const extra = Object.keys(property).find((key) => !LIST_KEYS.has(key));
  if (extra !== undefined) return `property "${name}" uses "${extra}"`;
  const type = singleType(property.type);
  if (type === undefined) {
    return `property "${name}" has type ${JSON.stringify(property.type)}, not one of ${[...LIST_TYPES].join(", ")}`;
  }
  const out: ToolParameter = { name, type, required };
  const description = property.description ?? property.title;
  if (typeof description === "string") out.description = description;
  if (Array.isArray(property.enum)) out.enum = property.enum;
  if (property.default !== undefined) out.default = property.default;
  if (type === "array") {
    const items = property.items;
    if (items === undefined) return `array property "${name}" declares no items`;
    if (!isObject(items) || Object.keys(items).some((key) => key !== "type")) {
      return `array property "${name}" has items richer than an element type`;
    }
    const itemType = singleType(items.type);
    if (itemType === undefined) return `array property "${name}" has no single element type`;
    out.items = { type: itemType };
  }
  if (type === "object") return `property "${name}" is an object (its fields need the schema)`;
  return out;
}

/** One of the list's types; a type union (`["string", "null"]`) needs the schema. */
function singleType(type: unknown): string | undefined {
  return typeof type === "string" && LIST_TYPES.has(type) ? type : undefined;
}
