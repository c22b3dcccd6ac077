// The sandbox registry (R96): the 25 legal `allowed_tools` names (app-schema's
// AGENT_SANDBOX_TOOLS, which manifest validation also uses), each with its side-effect class and
// whether a harness PAT session may use it (`dev_safe`). The spec names the classes; which
// tools are dev_safe it leaves open: the ones without side effects (D-agent-21).
import { AGENT_SANDBOX_TOOLS } from "@anna-ai/app-schema";

export type SandboxToolName = (typeof AGENT_SANDBOX_TOOLS)[number];
export type ToolEffect = "read-only" | "write" | "destructive" | "browser";

const EFFECTS: Readonly<Record<SandboxToolName, ToolEffect>> = {
  web_search: "read-only",
  sheet_read: "read-only",
  doc_read: "read-only",
  fs_read_file: "read-only",
  fs_write_file: "write",
  fs_list_directory: "read-only",
  fs_copy_file: "write",
  fs_move_file: "write",
  fs_delete_file: "destructive",
  fs_search: "read-only",
  fs_get_info: "read-only",
  fs_exists: "read-only",
  fs_mkdir: "write",
  exec_run: "destructive",
  exec_run_commands: "destructive",
  browser_create_instance: "browser",
  browser_navigate: "browser",
  browser_get_html: "browser",
  browser_click: "browser",
  browser_fill: "browser",
  browser_screenshot: "browser",
  browser_scroll: "browser",
  browser_execute_script: "browser",
  browser_wait_for_element: "browser",
  browser_toolkit: "browser",
};

export interface RegistryEntry {
  name: SandboxToolName;
  effect: ToolEffect;
  devSafe: boolean;
}

export const SANDBOX_REGISTRY: readonly RegistryEntry[] = AGENT_SANDBOX_TOOLS.map((name) => ({
  name,
  effect: EFFECTS[name],
  devSafe: EFFECTS[name] === "read-only",
}));

export function isSandboxToolName(name: string): name is SandboxToolName {
  return (AGENT_SANDBOX_TOOLS as readonly string[]).includes(name);
}
