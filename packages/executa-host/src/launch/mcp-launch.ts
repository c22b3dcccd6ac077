// `type: "mcp"`: the host does not speak MCP itself. It runs the bridge (src/mcp/bridge-main.ts),
// a small Node process that is an Executa plugin on its stdio and an MCP client of the server
// executa.json names, so the pool, the supervisor, the sandbox and `executa dev` treat an MCP
// server like any other plugin.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { readMcpServerConfig } from "../mcp/mcp-server-config.js";
import { readExecutaJsonRaw } from "./executa-json.js";
import { LaunchError } from "./launch-error.js";
import type { LaunchPlan } from "./launch-plan.js";

/**
 * The compiled bridge, found through the package's own `./mcp-bridge` export rather than a path
 * relative to this file: the same file whether this module runs from `dist/`, from `src/` under
 * the tests, or inlined in the CLI's single-file bundle.
 */
export const MCP_BRIDGE_MAIN = createRequire(import.meta.url).resolve(
  "@anna-ai/executa-host/mcp-bridge",
);

/**
 * argv: `node <bridge> <dir>`; an explicit command (a `--spec type=mcp,command=…` string) is the
 * MCP server's argv and follows `--`, replacing executa.json's `command`/`args`.
 */
export async function mcpPlan(
  dir: string,
  explicit: readonly string[] | undefined,
): Promise<LaunchPlan> {
  // Checked here so a broken entry fails detection, before anything is spawned.
  const file = path.join(dir, "executa.json");
  readMcpServerConfig(existsSync(file) ? await readExecutaJsonRaw(file) : {}, file, explicit);
  if (!existsSync(MCP_BRIDGE_MAIN)) {
    throw new LaunchError(
      "MCP_BRIDGE_MISSING",
      `${dir}: the MCP bridge ${MCP_BRIDGE_MAIN} is not built; run \`npx tsc -b\` (or npm run build) first`,
      { path: MCP_BRIDGE_MAIN },
    );
  }
  const command = [process.execPath, MCP_BRIDGE_MAIN, dir];
  if (explicit !== undefined) command.push("--", ...explicit);
  return { command, warnings: [] };
}
