// Reading the files a plugin folder is recognised by. Real plugins ship JSON with a UTF-8 BOM
// (real-world-plugins.md "More traps"), so every text read strips it.
import { readFile, stat } from "node:fs/promises";
import { JsonSyntaxError, parseJsonDocument } from "@anna-ai/app-schema/json-document";
import { parse as parseToml } from "smol-toml";
import { LaunchError } from "./launch-error.js";
import type { LaunchErrorCode } from "./launch-error.js";

const UTF8_BOM = "\uFEFF";

export async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

export async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

export async function readText(file: string): Promise<string> {
  const text = await readFile(file, "utf8");
  return text.startsWith(UTF8_BOM) ? text.slice(1) : text;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parses a JSON object file; anything else is a LaunchError with `code` naming the file. */
export async function readJsonObject(
  file: string,
  code: LaunchErrorCode,
): Promise<Record<string, unknown>> {
  const text = await readUnlessUnreadable(file, code);
  let value: unknown;
  try {
    value = parseJsonDocument(text).value;
  } catch (cause) {
    const at = cause instanceof JsonSyntaxError ? `${file}:${cause.line}:${cause.column}` : file;
    const detail = cause instanceof Error ? cause.message : String(cause);
    throw new LaunchError(code, `${at}: invalid JSON (${detail}); fix the syntax`, {
      path: file,
      cause,
    });
  }
  if (!isRecord(value)) {
    throw new LaunchError(code, `${file}: expected a JSON object at the top level`, { path: file });
  }
  return value;
}

export async function readTomlTable(
  file: string,
  code: LaunchErrorCode,
): Promise<Record<string, unknown>> {
  const text = await readUnlessUnreadable(file, code);
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
    throw new LaunchError(code, `${file}: invalid TOML (${detail}); fix the syntax`, {
      path: file,
      cause,
    });
  }
}

async function readUnlessUnreadable(file: string, code: LaunchErrorCode): Promise<string> {
  try {
    return await readText(file);
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    throw new LaunchError(code, `${file}: cannot be read (${detail})`, { path: file, cause });
  }
}
