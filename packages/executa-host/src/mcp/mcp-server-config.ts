// Which MCP server an `executa.json` of `type: "mcp"` names: a stdio command the bridge starts,
// or a Streamable HTTP URL it connects to. Read once at detection (so `executa dev` and the
// pool fail before spawning anything) and again by the bridge, with the same rules as
// `anna-app validate` (app-schema's validateExecutaJson).
import { validateExecutaJson as validateExecutaJsonDocument } from "@anna-ai/app-schema";
import { LaunchError } from "../launch/launch-error.js";
import { parseCommandField } from "../launch/executa-json.js";

export type McpServerConfig =
  | {
      transport: "stdio";
      /** argv: `command` (split like other executas' commands) followed by `args`. */
      command: readonly string[];
      /** On top of the bridge's own environment. */
      env: Readonly<Record<string, string>>;
    }
  | { transport: "http"; url: URL };

export function readMcpServerConfig(
  raw: Record<string, unknown>,
  file: string,
  explicit?: readonly string[],
): McpServerConfig {
  if (explicit !== undefined && explicit.length > 0) {
    return { transport: "stdio", command: explicit, env: stringRecord(raw.env) };
  }
  const checked = validateExecutaJsonDocument(raw, {});
  const problem = checked.issues.find((issue) => issue.severity === "error");
  if (problem !== undefined) {
    throw new LaunchError("INVALID_EXECUTA_JSON", `${file}: ${problem.message}`, {
      path: file,
      field: String(problem.path[0] ?? "type"),
    });
  }
  if (typeof raw.url === "string") return { transport: "http", url: new URL(raw.url) };
  const command = parseCommandField(raw.command, file) ?? [];
  const args = Array.isArray(raw.args) ? (raw.args as string[]) : [];
  return { transport: "stdio", command: [...command, ...args], env: stringRecord(raw.env) };
}

function stringRecord(value: unknown): Record<string, string> {
  if (value === null || typeof value !== "object") return {};
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) if (typeof entry === "string") out[key] = entry;
  return out;
}
