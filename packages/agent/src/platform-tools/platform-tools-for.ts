// Which tools an agent session gets (R95). Two regimes, chosen at `agent.session.create`:
//
// - sandbox (the default): registry ∩ manifest `ui.host_api.agent.tools` ∩ the user's grant
//   ∩ `quotaCaps.allowed_tools` [∩ dev_safe on harness PAT sessions] ∩ a per-run
//   `allowed_tools`. Unknown names are dropped silently; registry names this server does not
//   serve are dropped too (the catalog says why). Nothing left = a text-only agent and a
//   NO_TOOLS_AVAILABLE warning.
// - inherit (`quotaCaps.inherit_host_tools`, needs the user's grant): the main copilot's kit,
//   every platform built-in plus the user's installed executas' tools; `granted_tools` is
//   `["*"]` and a per-run `allowed_tools` does not narrow it.
import type { AgentTool } from "../turns/types.js";
import { SANDBOX_REGISTRY, type RegistryEntry } from "./registry.js";

export type PlatformRegime = "sandbox" | "inherit";

export interface PlatformToolsRequest {
  regime: PlatformRegime;
  /** Every platform built-in this server serves (fsTools, webTools, attachmentTools, exec_*). */
  builtins: readonly AgentTool[];
  /** sandbox: `manifest.ui.host_api.agent.tools`; absent = the app declared none. */
  appAllowList?: readonly string[];
  /** sandbox: what the user authorised in the Permissions modal; `"*"` = all the app declares. */
  userGrant: readonly string[] | "*";
  /** sandbox: `quotaCaps.allowed_tools` at create; absent = no further narrowing. */
  sessionAllowList?: readonly string[];
  /** sandbox: the run's `allowed_tools`; ignored by inherit sessions (L10145). */
  runAllowList?: readonly string[];
  /** sandbox: harness PAT sessions keep only dev_safe tools. */
  devSafeOnly?: boolean;
  /** inherit: whether the user granted `inherit_host_tools`. */
  inheritGranted?: boolean;
  /** inherit: the tools of the user's installed executas. */
  executaTools?: readonly AgentTool[];
  /**
   * inherit: the executa `tool_id`s the session may reach (a `fixed` session's pinned client,
   * or `ui.host_api.agent.session.fixed.client_ids`); absent or empty = every installed one.
   */
  executaAllowList?: readonly string[];
}

/** Why a registry tool is not in the session (agent.session.catalog's `blocked_by`). */
export type BlockedBy = "manifest" | "user_grant" | "allowed_tools" | "dev_safe" | "not_served";

export interface CatalogEntry {
  name: string;
  description: string;
  dev_safe: boolean;
  declared_in_manifest: boolean;
  user_granted: boolean;
  eligible: boolean;
  blocked_by?: BlockedBy;
}

export interface ResolvedPlatformTools {
  regime: PlatformRegime;
  tools: AgentTool[];
  /** The create response's `granted_tools`: the names, or `["*"]` for inherit. */
  grantedTools: string[];
  /**
   * `NO_TOOLS_AVAILABLE` when a sandbox session ends up text-only; `TOOL_NAME_CONFLICT` when an
   * executa tool has a built-in's name (the built-in wins: names are unique within a turn).
   */
  warnings: { code: "NO_TOOLS_AVAILABLE" | "TOOL_NAME_CONFLICT"; message: string }[];
  /** Every registry tool and whether this session would get it. */
  catalog: CatalogEntry[];
}

export class PlatformRegimeError extends Error {
  readonly code = "permission_denied";

  constructor(message: string) {
    super(message);
    this.name = "PlatformRegimeError";
  }
}

function blockedBy(
  entry: RegistryEntry,
  served: ReadonlyMap<string, AgentTool>,
  request: PlatformToolsRequest,
): BlockedBy | undefined {
  if (!(request.appAllowList ?? []).includes(entry.name)) return "manifest";
  if (request.userGrant !== "*" && !request.userGrant.includes(entry.name)) return "user_grant";
  if (request.sessionAllowList !== undefined && !request.sessionAllowList.includes(entry.name)) {
    return "allowed_tools";
  }
  if (request.devSafeOnly === true && !entry.devSafe) return "dev_safe";
  if (!served.has(entry.name)) return "not_served";
  return undefined;
}

function sandbox(request: PlatformToolsRequest): ResolvedPlatformTools {
  const served = new Map(request.builtins.map((tool) => [tool.name, tool]));
  const catalog: CatalogEntry[] = [];
  const session: AgentTool[] = [];
  for (const entry of SANDBOX_REGISTRY) {
    const blocked = blockedBy(entry, served, request);
    const tool = served.get(entry.name);
    catalog.push({
      name: entry.name,
      description: tool?.description ?? "",
      dev_safe: entry.devSafe,
      declared_in_manifest: (request.appAllowList ?? []).includes(entry.name),
      user_granted: request.userGrant === "*" || request.userGrant.includes(entry.name),
      eligible: blocked === undefined,
      ...(blocked === undefined ? {} : { blocked_by: blocked }),
    });
    if (blocked === undefined && tool !== undefined) session.push(tool);
  }
  const run =
    request.runAllowList === undefined
      ? session
      : session.filter((tool) => request.runAllowList?.includes(tool.name));
  return {
    regime: "sandbox",
    tools: run,
    grantedTools: session.map((tool) => tool.name),
    warnings:
      run.length === 0
        ? [
            {
              code: "NO_TOOLS_AVAILABLE",
              message:
                "this agent has no tools (the app's ui.host_api.agent.tools, the user's grant and allowed_tools leave none): it can only answer in text, and any claim of an action is not real",
            },
          ]
        : [],
    catalog,
  };
}

function inherit(request: PlatformToolsRequest): ResolvedPlatformTools {
  if (request.inheritGranted !== true) {
    throw new PlatformRegimeError(
      "quotaCaps.inherit_host_tools needs the user's grant; ask the user to allow this app their full tool kit, or create a sandbox session with an allowed_tools list",
    );
  }
  const allow = request.executaAllowList ?? [];
  const executas = (request.executaTools ?? []).filter(
    (tool) =>
      allow.length === 0 || (tool.source.kind === "executa" && allow.includes(tool.source.toolId)),
  );
  const served = new Set(request.builtins.map((tool) => tool.name));
  const clashing = executas.filter((tool) => served.has(tool.name));
  const tools = [...request.builtins, ...executas.filter((tool) => !served.has(tool.name))];
  return {
    regime: "inherit",
    tools,
    grantedTools: ["*"],
    warnings: clashing.map((tool) => ({
      code: "TOOL_NAME_CONFLICT" as const,
      message: `the executa tool ${tool.name} has the name of a platform tool and is left out of this session; rename it in the executa`,
    })),
    catalog: SANDBOX_REGISTRY.map((entry) => ({
      name: entry.name,
      description: request.builtins.find((t) => t.name === entry.name)?.description ?? "",
      dev_safe: entry.devSafe,
      declared_in_manifest: (request.appAllowList ?? []).includes(entry.name),
      user_granted: true,
      eligible: served.has(entry.name),
      ...(served.has(entry.name) ? {} : { blocked_by: "not_served" as const }),
    })),
  };
}

export function platformToolsFor(request: PlatformToolsRequest): ResolvedPlatformTools {
  return request.regime === "inherit" ? inherit(request) : sandbox(request);
}
