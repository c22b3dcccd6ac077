// `--args` takes inline JSON, `@file.json`, or `-` for stdin: arguments over 128 KiB cannot
// travel in argv, and generated arguments are easier to keep in a file.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { usageError } from "../cli/exit-error.js";
import { describeJsonError, parseJsonText } from "../cli/json-text.js";

const COMMAND = "executa dev";

export async function readArgsFlag(
  value: string | undefined,
  cwd: string,
  stdin: Readable,
): Promise<Record<string, unknown>> {
  if (value === undefined) return {};
  let text: string;
  let source: string;
  if (value === "-") {
    text = await readAll(stdin);
    source = "stdin";
  } else if (value.startsWith("@")) {
    const file = path.resolve(cwd, value.slice(1));
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === "ENOENT" ? "not found" : String(error);
      throw usageError(`--args ${value}: file ${file} ${reason}`, COMMAND);
    }
    source = file;
  } else {
    text = value;
    source = "--args";
  }
  return parseArgsJson(text, source);
}

export function parseArgsJson(text: string, source: string): Record<string, unknown> {
  const trimmed = text.replace(/^\uFEFF/, "").trim();
  if (trimmed === "") return {};
  let parsed: unknown;
  try {
    parsed = parseJsonText(text);
  } catch (error) {
    throw usageError(
      `${source} is not valid JSON (${describeJsonError(error)}); pass an object such as '{"text":"hi"}'`,
      COMMAND,
    );
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw usageError(
      `${source} must be a JSON object of tool arguments, got ${Array.isArray(parsed) ? "an array" : typeof parsed}`,
      COMMAND,
    );
  }
  return parsed as Record<string, unknown>;
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}
