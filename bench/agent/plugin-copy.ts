// The warm plugin of the tool piece: bench/host's floor plugin (plain NDJSON, node: imports
// only, so it runs inside bubblewrap, where only its own folder is visible). It is copied to a
// 0755 folder in the temp dir because the checkout may sit under a 0700 parent the sandbox's uid
// cannot traverse (as the executor tests' `reachableCopy` does).
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LaunchSpec } from "@anna-ai/executa-host";

const FLOOR_PLUGIN = fileURLToPath(new URL("../host/plugins/floor-plugin.mjs", import.meta.url));

export interface PluginCopy {
  spec: LaunchSpec;
  /** A sandbox root (0711, as the sandbox's uid must traverse it) beside the plugin. */
  sandboxRoot: string;
  remove(): void;
}

export function floorPluginCopy(toolId: string): PluginCopy {
  const base = mkdtempSync(join(tmpdir(), "anna-bench-agent-"));
  chmodSync(base, 0o755);
  const dir = join(base, "plugin");
  mkdirSync(dir, { mode: 0o755 });
  copyFileSync(FLOOR_PLUGIN, join(dir, "floor-plugin.mjs"));
  const sandboxRoot = join(base, "sandbox");
  mkdirSync(sandboxRoot, { mode: 0o711 });
  const spec: LaunchSpec = {
    toolId,
    type: "node",
    dir,
    command: ["node", "floor-plugin.mjs"],
    cwd: dir,
    env: {},
    binaryColdStart: false,
    source: "bench",
    warnings: [],
  };
  return { spec, sandboxRoot, remove: () => rmSync(base, { recursive: true, force: true }) };
}
