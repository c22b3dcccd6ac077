// `--executa 'dir=…,tool_id=…,type=…,command=…'` (anna-app dev) and `--spec '…'` (executa dev)
// strings (R165, R167, L11585, L11602).
import * as path from "node:path";
import { detectContext } from "./detect-context.js";
import type { DetectOptions } from "./detect-context.js";
import { detectLaunchSpec, existingDir, specForType } from "./detect.js";
import { EXECUTA_TYPES, launcherTypeHint } from "./executa-json.js";
import { LaunchError } from "./launch-error.js";
import { ShellSplitError, shellSplit } from "./shell-split.js";
import type { ExecutaType, LaunchSpec } from "./types.js";

export const SPEC_KEYS = ["dir", "tool_id", "type", "command"] as const;
export type SpecKey = (typeof SPEC_KEYS)[number];

export interface ParsedSpecString {
  dir?: string;
  toolId?: string;
  type?: ExecutaType;
  /** argv from a shell-split string or a JSON array. */
  command?: string[];
}

export interface SpecStringOptions {
  /** Which flag the string came from; decides message wording and whether `dir=` is required. */
  flag?: "--executa" | "--spec";
}

/**
 * Parses the string without touching the disk. Commas inside quotes or a JSON array do not
 * split; with `type=` or `command=`, `tool_id=` is required.
 */
export function parseSpecString(input: string, options: SpecStringOptions = {}): ParsedSpecString {
  const flag = options.flag ?? "--executa";
  const label = flag === "--executa" ? "--executa spec" : "--spec";
  const fail = (what: string, cause?: unknown): LaunchError =>
    new LaunchError("INVALID_SPEC", `${label} ${what} (in '${input}')`, { cause });

  const values = new Map<SpecKey, string>();
  for (const segment of splitSegments(input, fail)) {
    const eq = segment.indexOf("=");
    if (eq === -1) throw fail(`"${segment}" is not key=value; keys are ${SPEC_KEYS.join(", ")}`);
    const key = segment.slice(0, eq).trim();
    if (!(SPEC_KEYS as readonly string[]).includes(key)) {
      throw fail(`has unknown key "${key}"; valid keys are ${SPEC_KEYS.join(", ")}`);
    }
    if (values.has(key as SpecKey)) throw fail(`repeats ${key}=; give each key once`);
    values.set(key as SpecKey, segment.slice(eq + 1).trim());
  }

  const parsed: ParsedSpecString = {};
  const dir = values.get("dir");
  if (dir !== undefined) parsed.dir = nonEmpty("dir", unquote(dir), fail);
  const toolId = values.get("tool_id");
  if (toolId !== undefined) parsed.toolId = nonEmpty("tool_id", unquote(toolId), fail);
  const type = values.get("type");
  if (type !== undefined) {
    const value = unquote(type);
    if (!(EXECUTA_TYPES as readonly string[]).includes(value)) {
      throw fail(
        `has type=${value}; use one of ${EXECUTA_TYPES.join(", ")}${launcherTypeHint(value)}`,
      );
    }
    parsed.type = value as ExecutaType;
  }
  const command = values.get("command");
  if (command !== undefined) parsed.command = parseCommand(command, fail);

  if ((parsed.type !== undefined || parsed.command !== undefined) && parsed.toolId === undefined) {
    throw fail(`missing tool_id=; add tool_id=<id> whenever type= or command= is given`);
  }
  // The message must start with the Reference's exact text (R165).
  if (flag === "--executa" && parsed.dir === undefined) {
    throw fail(`missing dir=; add dir=<plugin folder>`);
  }
  return parsed;
}

export interface ResolveSpecStringOptions extends DetectOptions, SpecStringOptions {
  /** Relative `dir=` values resolve against this (default `process.cwd()`). */
  cwd?: string;
  /** Folder used when the string has no `dir=` (`executa dev --dir`, default: cwd). */
  defaultDir?: string;
}

/**
 * The LaunchSpec for a spec string. Only `dir=` (plus optionally `tool_id=`) auto-detects like
 * discovery does; `type=` uses that type's default command; `command=` is used as given. An
 * explicit spec ignores `enabled: false` (R165).
 */
export async function resolveSpecString(
  input: string | ParsedSpecString,
  options: ResolveSpecStringOptions = {},
): Promise<LaunchSpec> {
  const parsed = typeof input === "string" ? parseSpecString(input, options) : input;
  const cwd = options.cwd ?? process.cwd();
  const dir = await existingDir(path.resolve(cwd, parsed.dir ?? options.defaultDir ?? "."));
  const source = options.flag ?? "--executa";
  if (parsed.type === undefined && parsed.command === undefined) {
    const spec = await detectLaunchSpec(dir, options);
    return parsed.toolId === undefined ? spec : { ...spec, toolId: parsed.toolId, source };
  }
  const toolId = parsed.toolId as string;
  const type = parsed.type ?? typeOfCommand(parsed.command ?? []);
  return specForType(dir, toolId, type, parsed.command, source, detectContext(options));
}

/** Best guess of the type behind an explicit command with no `type=`. */
export function typeOfCommand(command: readonly string[]): ExecutaType {
  const program = path
    .basename(command[0] ?? "")
    .replace(/\.(exe|cmd)$/i, "")
    .toLowerCase();
  if (/^(python[\d.]*|py|uv|uvx)$/.test(program)) return "python";
  if (/^(node|nodejs|tsx|bun|deno)$/.test(program)) return "node";
  if (program === "go") return "go";
  return "binary";
}

function splitSegments(input: string, fail: (what: string) => LaunchError): string[] {
  const segments: string[] = [];
  let current = "";
  let quote: "'" | '"' | undefined;
  let depth = 0;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i] as string;
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      current += ch;
    } else if (ch === "\\" && i + 1 < input.length) {
      // Kept with its escaped character; shellSplit/JSON.parse interpret it later.
      current += ch + (input[i + 1] as string);
      i++;
    } else if (quote === '"') {
      if (ch === '"') quote = undefined;
      current += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      current += ch;
    } else if (ch === "[" && (depth > 0 || /^[^=]*=\s*$/.test(current))) {
      // Brackets only nest inside a value that is a JSON array, so `[` elsewhere stays literal.
      depth++;
      current += ch;
    } else if (ch === "]" && depth > 0) {
      depth--;
      current += ch;
    } else if (ch === "," && depth === 0) {
      segments.push(current);
      current = "";
    } else {
      current += ch;
    }
  }
  if (quote !== undefined) throw fail(`has an unterminated ${quote} quote`);
  if (depth > 0) throw fail(`has an unterminated JSON array`);
  segments.push(current);
  return segments.map((s) => s.trim()).filter((s) => s !== "");
}

function parseCommand(
  value: string,
  fail: (what: string, cause?: unknown) => LaunchError,
): string[] {
  let argv: unknown;
  if (value.startsWith("[")) {
    try {
      argv = JSON.parse(value);
    } catch (cause) {
      throw fail(`command= is not a valid JSON array (${(cause as Error).message})`, cause);
    }
    if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string")) {
      throw fail(`command= JSON must be an array of strings`);
    }
  } else {
    try {
      // The Reference's own example quotes the whole command (`command="node dist/server.js"`)
      // to protect it from the comma split; that outer pair is not part of one argument.
      argv = shellSplit(wholeQuoted(value) ?? value);
    } catch (cause) {
      const detail = cause instanceof ShellSplitError ? cause.message : String(cause);
      throw fail(
        `command= cannot be split (${detail}); fix the quoting or use a JSON array`,
        cause,
      );
    }
  }
  const list = argv as string[];
  if (list.length === 0 || list[0] === "") throw fail(`command= is empty; give the program to run`);
  return list;
}

/** The inside of `"…"`/`'…'` when that one pair spans the whole value, else undefined. */
function wholeQuoted(value: string): string | undefined {
  const quote = value[0];
  if ((quote !== '"' && quote !== "'") || value.length < 2) return undefined;
  for (let i = 1; i < value.length; i++) {
    if (quote === '"' && value[i] === "\\") {
      i++;
    } else if (value[i] === quote) {
      if (i !== value.length - 1) return undefined;
      const inner = value.slice(1, -1);
      return quote === '"' ? inner.replace(/\\(["\\])/g, "$1") : inner;
    }
  }
  return undefined;
}

/** One pair of surrounding quotes is removed; backslashes stay (Windows paths). */
function unquote(value: string): string {
  const first = value[0];
  if ((first === '"' || first === "'") && value.length >= 2 && value.endsWith(first)) {
    return value.slice(1, -1);
  }
  return value;
}

function nonEmpty(key: string, value: string, fail: (what: string) => LaunchError): string {
  if (value === "") throw fail(`has an empty ${key}=`);
  return value;
}
