// Contract tests generated from what a plugin declares: for each tool, arguments that its own
// parameter list says are valid (defaults, enums, types), then each required parameter left out,
// then each parameter given a value of the wrong type. Cases are plain data, so `describe.each`,
// `node:test` or any other runner can drive them; `assertContractOutcome` judges one answer.

import {
  PROTOCOL_ERRORS,
  toLlmToolSchema,
  type ExecutaManifest,
  type ToolDefinition,
} from "@anna-ai/app-schema";
import {
  EnvelopeAssertionError,
  assertInvokeFailure,
  assertInvokeResult,
  assertResponse,
} from "./assertions.js";
import type { Frame, JsonObject } from "./frame.js";

export type ContractCaseKind = "valid" | "missing_required" | "wrong_type";

export interface ContractCase {
  /** `greet: missing required "name"`: stable, so it reads well as a test title. */
  title: string;
  tool: string;
  kind: ContractCaseKind;
  arguments: JsonObject;
  /** The parameter the case is about (`missing_required`, `wrong_type`). */
  parameter?: string;
  /**
   * `accepted`: the plugin must take the arguments (any well-formed invoke result; a failure for
   * another reason, such as a disabled host service, is still an answer). `rejected`: it must
   * refuse them (`success: false` or a JSON-RPC error), never report success.
   */
  expect: "accepted" | "rejected";
}

type PropertySchema = Record<string, unknown>;

const SAMPLE_STRING = "example";

/** A value `schema` accepts: its default, else its first enum value, else one built from its type. */
export function sampleValue(schema: PropertySchema): unknown {
  if (schema.default !== undefined && schema.default !== null) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const minimum = typeof schema.minimum === "number" ? schema.minimum : undefined;
  const maximum = typeof schema.maximum === "number" ? schema.maximum : undefined;
  switch (schema.type) {
    case "integer":
      return Math.ceil(minimum ?? Math.min(1, maximum ?? 1));
    case "number":
      return minimum ?? Math.min(1, maximum ?? 1);
    case "boolean":
      return true;
    case "array": {
      const items = typeof schema.items === "object" && schema.items !== null ? schema.items : {};
      const count = typeof schema.minItems === "number" ? Math.max(1, schema.minItems) : 1;
      return Array.from({ length: count }, () => sampleValue(items as PropertySchema));
    }
    case "object":
      return {};
    default: {
      const minLength = typeof schema.minLength === "number" ? schema.minLength : 0;
      return SAMPLE_STRING.padEnd(minLength, "x");
    }
  }
}

/** A value of another JSON type than `schema` declares; `undefined` when any type is allowed. */
export function wrongTypeValue(schema: PropertySchema): unknown {
  switch (schema.type) {
    case "string":
      return 12345;
    case "integer":
    case "number":
      return "not a number";
    case "boolean":
      return "not a boolean";
    case "array":
      return "not an array";
    case "object":
      return "not an object";
    default:
      return undefined;
  }
}

export interface ContractOptions {
  /**
   * Valid values the manifest cannot express (allowed list items, formats, ranges in prose), by
   * tool and parameter: `{forecast: {fields: ["temp"]}}`. They replace the generated samples.
   */
  samples?: Readonly<Record<string, JsonObject>>;
}

/** The cases for one tool, from its parameters as the LLM sees them (list or JSON-Schema form). */
export function toolContractCases(
  tool: ToolDefinition,
  options: ContractOptions = {},
): ContractCase[] {
  const { schema } = toLlmToolSchema(tool);
  const properties = Object.entries(schema.properties);
  const required = new Set(schema.required);
  const samples = options.samples?.[tool.name] ?? {};
  const all: JsonObject = {};
  const requiredOnly: JsonObject = {};
  for (const [name, property] of properties) {
    const value = Object.hasOwn(samples, name) ? samples[name] : sampleValue(property);
    all[name] = value;
    if (required.has(name)) requiredOnly[name] = value;
  }
  const cases: ContractCase[] = [
    {
      title: `${tool.name}: required parameters only`,
      tool: tool.name,
      kind: "valid",
      arguments: requiredOnly,
      expect: "accepted",
    },
  ];
  if (Object.keys(all).length > Object.keys(requiredOnly).length) {
    cases.push({
      title: `${tool.name}: every parameter`,
      tool: tool.name,
      kind: "valid",
      arguments: all,
      expect: "accepted",
    });
  }
  for (const name of required) {
    const args = { ...all };
    delete args[name];
    cases.push({
      title: `${tool.name}: missing required "${name}"`,
      tool: tool.name,
      kind: "missing_required",
      arguments: args,
      parameter: name,
      expect: "rejected",
    });
  }
  for (const [name, property] of properties) {
    const wrong = wrongTypeValue(property);
    if (wrong === undefined) continue;
    cases.push({
      title: `${tool.name}: "${name}" of the wrong type (${typeof wrong} for ${String(property.type)})`,
      tool: tool.name,
      kind: "wrong_type",
      arguments: { ...all, [name]: wrong },
      parameter: name,
      expect: "rejected",
    });
  }
  return cases;
}

/** Every tool's cases, in declaration order. */
export function contractCases(
  manifest: Pick<ExecutaManifest, "tools">,
  options: ContractOptions = {},
): ContractCase[] {
  return manifest.tools.flatMap((tool) => toolContractCases(tool, options));
}

/** Judges the plugin's answer to one case; throws an EnvelopeAssertionError that names the case. */
export function assertContractOutcome(testCase: ContractCase, frame: Frame): void {
  const args = JSON.stringify(testCase.arguments);
  try {
    if (testCase.expect === "rejected") {
      assertInvokeFailure(frame);
      return;
    }
    const envelope = assertResponse(frame);
    if (envelope.kind === "error") {
      const { code } = envelope.error;
      if (
        code === PROTOCOL_ERRORS.INVALID_PARAMS.code ||
        code === PROTOCOL_ERRORS.METHOD_NOT_FOUND.code
      ) {
        throw new EnvelopeAssertionError(
          `refused with error ${code} (${envelope.error.message}) although the arguments follow the declared parameters`,
          frame,
        );
      }
      return;
    }
    assertInvokeResult(frame);
  } catch (error) {
    if (!(error instanceof EnvelopeAssertionError)) throw error;
    const hint =
      testCase.expect === "rejected"
        ? "; check the arguments against the declared parameters and answer -32602 or success: false"
        : "";
    throw new EnvelopeAssertionError(
      `contract case "${testCase.title}" with arguments ${args}: ${error.detail}${hint}`,
      error.frame,
    );
  }
}
