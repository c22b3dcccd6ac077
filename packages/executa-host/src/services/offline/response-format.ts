// Structured output for sampling (T18, L1766–L1872): the schema hard limits (-32004), the model
// gate for `json_schema` with its `onUnsupported` policy (-32010, downgrade, drop), and the
// informational `_meta.responseFormat` block. The router only checks the wire shape (the name
// pattern lives in app-schema's zod schema); everything here is the "model side", so it lives
// with the sampling services and runs again when a service is called without the router.
import {
  RESPONSE_SCHEMA_MAX_BYTES,
  RESPONSE_SCHEMA_MAX_DEPTH,
  RESPONSE_SCHEMA_MAX_NODES,
  RESPONSE_SCHEMA_NAME_PATTERN,
} from "@anna-ai/app-schema";
import type { OnUnsupported, ResponseFormat } from "@anna-ai/app-schema";
import { SAMPLING_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError } from "../service-error.js";

export type ResponseFormatType = ResponseFormat["type"];

/** What a schema costs against the hard limits. */
export interface SchemaMeasure {
  /** UTF-8 bytes of the compact JSON serialisation. */
  bytes: number;
  /** Containers (objects, arrays) nested inside each other; the root object is depth 1. */
  depth: number;
  /** Every JSON value: objects, arrays and leaves, the root included. */
  nodes: number;
}

/**
 * Measures a schema, stopping early once it is past `limits` (a hostile schema costs at most
 * the limit to walk). Iterative, so a deeply nested document cannot overflow the stack.
 */
export function measureSchema(
  schema: unknown,
  limits: { depth: number; nodes: number } = {
    depth: RESPONSE_SCHEMA_MAX_DEPTH,
    nodes: RESPONSE_SCHEMA_MAX_NODES,
  },
): SchemaMeasure {
  const text = JSON.stringify(schema) ?? "null";
  let depth = 0;
  let nodes = 0;
  const stack: [unknown, number][] = [[schema, 1]];
  while (stack.length > 0) {
    const [value, level] = stack.pop() as [unknown, number];
    nodes += 1;
    if (value !== null && typeof value === "object") {
      depth = Math.max(depth, level);
      if (depth > limits.depth || nodes > limits.nodes) break;
      const children = Array.isArray(value) ? value : Object.values(value as object);
      for (const child of children) stack.push([child, level + 1]);
    }
    if (nodes > limits.nodes) break;
  }
  return { bytes: Buffer.byteLength(text, "utf8"), depth, nodes };
}

function invalid(message: string, data: Record<string, unknown>): never {
  throw catalogError(SAMPLING_ERRORS.INVALID_REQUEST, message, data);
}

/**
 * The production checks on `responseFormat` (L1818–L1828) → -32004 SAMPLING_INVALID_REQUEST.
 * `text` and `json_object` carry nothing to check.
 */
export function checkResponseFormat(format: ResponseFormat | undefined): void {
  if (format === undefined) return;
  const type: unknown = (format as { type?: unknown }).type;
  if (type !== "text" && type !== "json_object" && type !== "json_schema") {
    invalid(`responseFormat.type must be "text", "json_object" or "json_schema"`, {
      field: "responseFormat.type",
    });
  }
  if (format.type !== "json_schema") return;
  const spec = (format as { json_schema?: unknown }).json_schema;
  if (spec === null || typeof spec !== "object") {
    invalid("responseFormat.json_schema must be an object {name, strict?, schema}", {
      field: "responseFormat.json_schema",
    });
  }
  const { name, schema } = spec as { name?: unknown; schema?: unknown };
  if (typeof name !== "string" || !RESPONSE_SCHEMA_NAME_PATTERN.test(name)) {
    invalid(
      `responseFormat.json_schema.name must match ${String(RESPONSE_SCHEMA_NAME_PATTERN)} (letters, digits, '_' and '-', 1–64 characters)`,
      { field: "responseFormat.json_schema.name" },
    );
  }
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
    invalid("responseFormat.json_schema.schema must be a JSON Schema object", {
      field: "responseFormat.json_schema.schema",
    });
  }
  let measure: SchemaMeasure;
  try {
    measure = measureSchema(schema);
  } catch (error) {
    // Only reachable from in-process callers (a cycle or a BigInt); the wire cannot send those.
    throw catalogError(
      SAMPLING_ERRORS.INVALID_REQUEST,
      "responseFormat.json_schema.schema is not serialisable JSON",
      { field: "responseFormat.json_schema.schema" },
      { cause: error },
    );
  }
  if (measure.bytes > RESPONSE_SCHEMA_MAX_BYTES) {
    invalid(
      `responseFormat schema is ${measure.bytes} bytes serialised; at most ${RESPONSE_SCHEMA_MAX_BYTES} (32 KB)`,
      { limit: "schema_bytes", max: RESPONSE_SCHEMA_MAX_BYTES, actual: measure.bytes },
    );
  }
  if (measure.depth > RESPONSE_SCHEMA_MAX_DEPTH) {
    invalid(
      `responseFormat schema nests more than ${RESPONSE_SCHEMA_MAX_DEPTH} levels deep; flatten it`,
      { limit: "schema_depth", max: RESPONSE_SCHEMA_MAX_DEPTH },
    );
  }
  if (measure.nodes > RESPONSE_SCHEMA_MAX_NODES) {
    invalid(
      `responseFormat schema has more than ${RESPONSE_SCHEMA_MAX_NODES} nodes (objects, arrays and leaves); simplify it`,
      { limit: "schema_nodes", max: RESPONSE_SCHEMA_MAX_NODES },
    );
  }
}

/** What the host sends to the model for a request, after the `json_schema` gate. */
export interface AppliedResponseFormat {
  requested: ResponseFormatType;
  /** `null` when `onUnsupported: "text"` dropped the constraint. */
  applied: ResponseFormatType | null;
  downgraded: boolean;
  /** The requested JSON Schema, when there was one (kept after a downgrade, see D-host-82). */
  schema?: Record<string, unknown>;
}

/**
 * The `json_schema` gate (L1806–L1816): `json_object` and `text` always pass; `json_schema`
 * passes when the model supports structured output, else `onUnsupported` decides.
 */
export function applyResponseFormat(
  format: ResponseFormat | undefined,
  onUnsupported: OnUnsupported,
  model: { name: string; supportsJsonSchema: boolean },
): AppliedResponseFormat | undefined {
  if (format === undefined) return undefined;
  if (format.type !== "json_schema") {
    return { requested: format.type, applied: format.type, downgraded: false };
  }
  const schema = (format.json_schema as { schema: Record<string, unknown> }).schema;
  if (model.supportsJsonSchema) {
    return { requested: "json_schema", applied: "json_schema", downgraded: false, schema };
  }
  if (onUnsupported === "json_object") {
    return { requested: "json_schema", applied: "json_object", downgraded: true, schema };
  }
  if (onUnsupported === "text") {
    return { requested: "json_schema", applied: null, downgraded: true, schema };
  }
  throw catalogError(
    SAMPLING_ERRORS.UNSUPPORTED_RESPONSE_FORMAT,
    `model ${model.name} cannot honour responseFormat json_schema; pass onUnsupported "json_object" or "text" to degrade instead`,
    { requested: "json_schema", modelName: model.name },
  );
}

/** `_meta.responseFormat` (L1830–L1846). */
export interface ResponseFormatMeta {
  requested: string;
  applied: string | null;
  /** Whether `content.text` parsed as JSON; informational, as in production. */
  structuredValid: boolean;
  downgraded: boolean;
}

export function responseFormatMeta(
  applied: AppliedResponseFormat,
  text: string | undefined,
): ResponseFormatMeta {
  return {
    requested: applied.requested,
    applied: applied.applied,
    structuredValid: text !== undefined && parsesAsJson(text),
    downgraded: applied.downgraded,
  };
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
