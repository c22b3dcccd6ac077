// `--samples`: valid argument values the manifest cannot express, inline JSON or `@file.json`,
// shaped `{tool: {parameter: value}}` (the contract cases use them instead of generated values).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { usageError } from "../cli/exit-error.js";
import { describeJsonError, parseJsonText } from "../cli/json-text.js";

const NAME = "executa test";
type Samples = Record<string, Record<string, unknown>>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export async function readSamplesFlag(
  value: string | undefined,
  cwd: string,
): Promise<Samples | undefined> {
  if (value === undefined) return undefined;
  let text = value;
  let source = "--samples";
  if (value.startsWith("@")) {
    source = path.resolve(cwd, value.slice(1));
    try {
      text = await readFile(source, "utf8");
    } catch (error) {
      throw usageError(
        `--samples ${value}: cannot read ${source} (${(error as Error).message})`,
        NAME,
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = parseJsonText(text);
  } catch (error) {
    throw usageError(`${source} is not valid JSON (${describeJsonError(error)})`, NAME);
  }
  const shapeError = `${source} must be an object of tools, each an object of parameter values: '{"forecast":{"fields":["temp"]}}'`;
  if (!isObject(parsed)) throw usageError(shapeError, NAME);
  for (const perTool of Object.values(parsed))
    if (!isObject(perTool)) throw usageError(shapeError, NAME);
  return parsed as Samples;
}
