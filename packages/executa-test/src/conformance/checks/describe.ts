// `describe`: the bare manifest the host accepts (T5, pitfall 5), and parameters the host can turn
// into an LLM tool schema (T6): known types, enums and defaults of the declared type.

import {
  toLlmToolSchema,
  type ExecutaManifest,
  type ManifestWarning,
  type ManifestWarningCode,
} from "@anna-ai/app-schema";
import { assertManifest } from "../../assertions.js";
import type { KitSession } from "../kit-session.js";
import { fail, pass, warn, type Verdict } from "../verdict.js";

/** Warnings about parameters belong to describe.parameters, the rest to describe.manifest. */
const PARAMETER_WARNINGS: ReadonlySet<ManifestWarningCode> = new Set([
  "INPUT_SCHEMA_IGNORED",
  "ARRAY_WITHOUT_ITEMS",
  "UNKNOWN_PARAMETER_TYPE",
  "DUPLICATE_PARAMETER",
]);

export interface DescribeOutcome {
  verdict: Verdict;
  manifest: ExecutaManifest | undefined;
  parameterWarnings: ManifestWarning[];
}

function listWarnings(warnings: readonly ManifestWarning[]): string {
  return warnings.map((w) => `${w.path.join(".")}: ${w.message}`).join("; ");
}

export async function checkManifest(session: KitSession): Promise<DescribeOutcome> {
  const frame = await session.client.describe();
  const { manifest, warnings } = assertManifest(frame);
  const own = warnings.filter((w) => !PARAMETER_WARNINGS.has(w.code));
  const parameterWarnings = warnings.filter((w) => PARAMETER_WARNINGS.has(w.code));
  const verdict =
    own.length === 0
      ? pass(`${manifest.tools.length} tool(s)`)
      : warn(
          `the host accepts the manifest with warnings: ${listWarnings(own)}`,
          "fix each warning so the platform shows and gates the plugin as intended",
        );
  return { verdict, manifest, parameterWarnings };
}

const JSON_TYPE_OF: Readonly<Record<string, (value: unknown) => boolean>> = {
  string: (v) => typeof v === "string",
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === "number" && Number.isFinite(v),
  boolean: (v) => typeof v === "boolean",
  array: (v) => Array.isArray(v),
  object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
};

/** Defaults and enum values that contradict their own declared type (the LLM is told both). */
function valueProblems(manifest: ExecutaManifest): string[] {
  const problems: string[] = [];
  for (const tool of manifest.tools) {
    const { schema } = toLlmToolSchema(tool);
    for (const [name, property] of Object.entries(schema.properties)) {
      const type = typeof property.type === "string" ? property.type : undefined;
      const fits = type === undefined ? undefined : JSON_TYPE_OF[type];
      if (fits === undefined) continue;
      const where = `${tool.name}.${name}`;
      const enumValues = Array.isArray(property.enum) ? (property.enum as unknown[]) : undefined;
      const badEnum = enumValues?.filter((value) => !fits(value)) ?? [];
      if (badEnum.length > 0) {
        problems.push(`${where}: enum value(s) ${JSON.stringify(badEnum)} are not ${type}`);
      }
      const fallback = property.default;
      if (fallback === undefined || fallback === null) continue;
      if (!fits(fallback)) {
        problems.push(`${where}: default ${JSON.stringify(fallback)} is not ${type}`);
      } else if (enumValues !== undefined && !enumValues.some((v) => v === fallback)) {
        problems.push(`${where}: default ${JSON.stringify(fallback)} is not one of its enum`);
      }
    }
  }
  return problems;
}

export function checkParameters(
  manifest: ExecutaManifest,
  parameterWarnings: readonly ManifestWarning[],
): Verdict {
  const problems = valueProblems(manifest);
  if (problems.length > 0) {
    return fail(
      problems.join("; "),
      "declare defaults and enum values of the parameter's own type (the host passes them to the LLM as they are)",
    );
  }
  if (parameterWarnings.length > 0) {
    return warn(
      listWarnings(parameterWarnings),
      'declare parameters as a list of {name, type, description, required} with type one of string, integer, number, boolean, array (with "items"), object',
    );
  }
  return pass();
}
