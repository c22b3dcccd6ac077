// `executa.json`: the explicit marker of a plugin folder (R165, L11581). Only `tool_id` and
// `type` are required; unknown keys (`transport`, `manifest_file`, `distribution`, …) are
// tolerated because real plugins carry them (real-world-plugins.md "More traps").
import { suggestClosest } from "@anna-ai/app-schema";
import { LaunchError } from "./launch-error.js";
import { readJsonObject } from "./project-files.js";
import { ShellSplitError, shellSplit } from "./shell-split.js";
import type { ExecutaType } from "./types.js";

export const EXECUTA_TYPES: readonly ExecutaType[] = ["python", "node", "go", "binary", "mcp"];

/** `; did you mean "python"?` for a mistyped launcher type ("pyhton", "Node", "golang"), or "". */
export function launcherTypeHint(value: string): string {
  const lower = value.trim().toLowerCase();
  const aliases: Record<string, ExecutaType> = { golang: "go", nodejs: "node", python3: "python" };
  const guess =
    aliases[lower] ??
    (EXECUTA_TYPES.includes(lower as ExecutaType)
      ? lower
      : suggestClosest(lower, EXECUTA_TYPES, 2)[0]);
  return guess === undefined ? "" : `; did you mean "${guess}"?`;
}

export interface ExecutaJson {
  toolId: string;
  type: ExecutaType;
  /** argv that fully replaces the type's default (cwd = the plugin folder). */
  command: readonly string[] | undefined;
  /** `false` excludes the folder from auto-discovery; an explicit `--executa dir=` still runs it. */
  enabled: boolean;
}

/** Reads the file; `enabled` is looked at before validation so a disabled draft never errors. */
export async function readExecutaJsonRaw(file: string): Promise<Record<string, unknown>> {
  return readJsonObject(file, "INVALID_EXECUTA_JSON");
}

export function isDisabled(raw: Record<string, unknown>): boolean {
  return raw.enabled === false;
}

export function validateExecutaJson(raw: Record<string, unknown>, file: string): ExecutaJson {
  const toolId = raw.tool_id;
  if (toolId === undefined || toolId === null || toolId === "") {
    throw invalid(
      file,
      `missing "tool_id"; add "tool_id": "<id>" (the id manifest.json uses)`,
      "tool_id",
    );
  }
  if (typeof toolId !== "string" || toolId.trim() === "") {
    throw invalid(
      file,
      `"tool_id" must be a non-empty string, got ${JSON.stringify(toolId)}`,
      "tool_id",
    );
  }
  const type = raw.type;
  if (type === undefined || type === null || type === "") {
    throw invalid(file, `missing "type"; add "type": one of ${EXECUTA_TYPES.join(", ")}`, "type");
  }
  if (typeof type !== "string" || !(EXECUTA_TYPES as readonly string[]).includes(type)) {
    throw invalid(
      file,
      `"type" must be one of ${EXECUTA_TYPES.join(", ")}, got ${JSON.stringify(type)}${typeof type === "string" ? launcherTypeHint(type) : ""}`,
      "type",
    );
  }
  return {
    toolId: toolId.trim(),
    type: type as ExecutaType,
    // An MCP entry's command is the server's, read by the bridge; the host runs the bridge.
    command: type === "mcp" ? undefined : parseCommandField(raw.command, file),
    enabled: raw.enabled !== false,
  };
}

export function parseCommandField(command: unknown, file: string): readonly string[] | undefined {
  if (command === undefined || command === null) return undefined;
  let argv: string[];
  if (typeof command === "string") {
    try {
      argv = shellSplit(command);
    } catch (cause) {
      const detail = cause instanceof ShellSplitError ? cause.message : String(cause);
      throw invalid(
        file,
        `"command" string cannot be split (${detail}); fix the quoting or use an argv array`,
        "command",
        cause,
      );
    }
  } else if (Array.isArray(command) && command.every((part) => typeof part === "string")) {
    argv = command as string[];
  } else {
    throw invalid(
      file,
      `"command" must be an argv array of strings or a command string`,
      "command",
    );
  }
  if (argv.length === 0 || argv[0] === "") {
    throw invalid(
      file,
      `"command" is empty; give the program to run, e.g. ["go", "run", "."]`,
      "command",
    );
  }
  return argv;
}

function invalid(file: string, what: string, field: string, cause?: unknown): LaunchError {
  return new LaunchError("INVALID_EXECUTA_JSON", `${file}: ${what}`, { path: file, field, cause });
}
