import type { ManifestWarning } from "./manifest-warning.js";
import type { ToolDefinition, ToolParameter } from "./manifest.js";
import { TOOL_PARAMETER_TYPES, type ToolParameterType } from "./manifest.js";

/** A JSON Schema object describing a tool's arguments, as LLM providers take it. */
export interface LlmToolSchema {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  [key: string]: unknown;
}

export interface LlmToolSchemaResult {
  schema: LlmToolSchema;
  warnings: ManifestWarning[];
}

/** Python-flavoured names seen in manifests, mapped to the JSON Schema type they mean. */
const TYPE_ALIASES: Readonly<Record<string, ToolParameterType>> = {
  str: "string",
  text: "string",
  int: "integer",
  float: "number",
  double: "number",
  bool: "boolean",
  list: "array",
  dict: "object",
  map: "object",
};

const KNOWN_TYPES = new Set<string>(TOOL_PARAMETER_TYPES);

/** Injected into `multi_account` tools (R70). */
const ACCOUNT_PARAMETER = {
  type: "string",
  description: "Target account email or id; omit for default",
} as const;

function resolveType(
  raw: string | null | undefined,
  path: (string | number)[],
  warnings: ManifestWarning[],
): ToolParameterType {
  if (typeof raw !== "string" || raw === "") {
    warnings.push({
      code: "UNKNOWN_PARAMETER_TYPE",
      message: 'parameter declares no type; treated as "string"',
      path,
    });
    return "string";
  }
  const lower = raw.toLowerCase();
  if (KNOWN_TYPES.has(lower)) return lower as ToolParameterType;
  const alias = TYPE_ALIASES[lower];
  warnings.push({
    code: "UNKNOWN_PARAMETER_TYPE",
    message: alias
      ? `parameter type "${raw}" is not a protocol type; treated as "${alias}"`
      : `parameter type "${raw}" is not a protocol type; treated as "string"`,
    path,
  });
  return alias ?? "string";
}

function parameterSchema(
  param: ToolParameter,
  path: (string | number)[],
  warnings: ManifestWarning[],
): Record<string, unknown> {
  const type = resolveType(param.type, [...path, "type"], warnings);
  const out: Record<string, unknown> = { type };
  if (typeof param.description === "string") out["description"] = param.description;
  if (Array.isArray(param.enum)) out["enum"] = param.enum;
  // `null` is a legitimate default; only an absent key means "no default".
  if (param.default !== undefined) out["default"] = param.default;
  if (type === "array") {
    const items = param.items;
    if (typeof items === "string") {
      out["items"] = { type: items };
    } else if (typeof items?.type === "string") {
      out["items"] = items;
    } else if (typeof param.items_type === "string") {
      out["items"] = { type: param.items_type };
    } else {
      // Without an element type LLMs pass JSON-encoded strings; the platform assumes strings (T6).
      out["items"] = { type: "string" };
      warnings.push({
        code: "ARRAY_WITHOUT_ITEMS",
        message: `array parameter "${param.name}" declares neither items nor items_type; assuming strings`,
        path,
      });
    }
  }
  return out;
}

/**
 * The JSON Schema an LLM sees for a tool (T6, R22). `parameters[]` entries are required unless
 * `required: false`; a JSON-Schema `parameters` object is used as is; an `input_schema`-only
 * tool gets no parameters, as on the platform, plus a warning.
 */
export function toLlmToolSchema(
  tool: ToolDefinition,
  basePath: (string | number)[] = [],
): LlmToolSchemaResult {
  const warnings: ManifestWarning[] = [];
  const params = tool.parameters ?? undefined;
  let schema: LlmToolSchema;

  if (params !== undefined && !Array.isArray(params)) {
    schema = {
      ...params,
      type: "object",
      properties: (params.properties ?? {}) as Record<string, Record<string, unknown>>,
      required: params.required ?? [],
    };
  } else {
    if (
      params === undefined &&
      typeof tool.input_schema === "object" &&
      tool.input_schema !== null
    ) {
      warnings.push({
        code: "INPUT_SCHEMA_IGNORED",
        message: `tool "${tool.name}" declares input_schema, which the platform ignores; declare parameters: [...] (the LLM sees no arguments)`,
        path: [...basePath, "input_schema"],
      });
    }
    // Maps, not object keys: a parameter may be called `__proto__`. Insertion order is
    // declaration order; a redeclared parameter keeps its place and the last one wins.
    const properties = new Map<string, Record<string, unknown>>();
    const requiredByName = new Map<string, boolean>();
    (params ?? []).forEach((param, index) => {
      const path = [...basePath, "parameters", index];
      if (requiredByName.has(param.name)) {
        warnings.push({
          code: "DUPLICATE_PARAMETER",
          message: `parameter "${param.name}" is declared twice; the last one wins`,
          path,
        });
      }
      properties.set(param.name, parameterSchema(param, path, warnings));
      requiredByName.set(param.name, param.required !== false);
    });
    const required = [...requiredByName]
      .filter(([, isRequired]) => isRequired)
      .map(([name]) => name);
    schema = { type: "object", properties: Object.fromEntries(properties), required };
  }

  if (tool.multi_account === true && !Object.hasOwn(schema.properties, "account")) {
    schema.properties = { ...schema.properties, account: { ...ACCOUNT_PARAMETER } };
  }
  return { schema, warnings };
}
