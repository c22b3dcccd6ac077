import { type AppManifest } from "./manifest.js";
import {
  AGENT_SANDBOX_TOOLS,
  expandHostApiGrant,
  HOST_API_NAMESPACES,
  isHostApiNamespace,
} from "./host-api-methods.js";
import { type AppIssue, appIssue } from "./issues.js";
import { declaredToolIds } from "./manifest-rules.js";
import { permissionForMethod } from "./permissions.js";
import { formatSpecMessage } from "./spec-messages.js";
import { didYouMean } from "./suggest.js";
import { parseToolRef } from "./tool-refs.js";
import { type UiSection } from "./ui-section.js";
import { quote } from "./text.js";

type Path = (string | number)[];

/**
 * Rules over `ui.host_api` of a structurally valid manifest: unknown namespaces, `tools` refs
 * resolved against the declared ids (with the platform's message), the agent grant, and
 * permissions missing for what is granted (ruling A2).
 */
export function hostApiRules(manifest: AppManifest): AppIssue[] {
  const out: AppIssue[] = [];
  const ui = manifest.ui;
  if (ui === undefined || ui === null) return out;
  const hostApi = ui.host_api;
  if (hostApi === undefined || hostApi === null) return out;
  for (const namespace of Object.keys(hostApi)) {
    if (isHostApiNamespace(namespace)) continue;
    out.push(
      appIssue(
        "warning",
        "ui.host_api.unknown_namespace",
        ["ui", "host_api", namespace],
        `${quote(namespace)} is not a Host API namespace, so this grant opens nothing.${didYouMean(namespace, HOST_API_NAMESPACES)} Namespaces: ${HOST_API_NAMESPACES.join(", ")}`,
      ),
    );
  }
  const tools = hostApi.tools ?? [];
  tools.forEach((ref, index) => {
    const path: Path = ["ui", "host_api", "tools", index];
    const parsed = parseToolRef(ref);
    if (parsed === undefined) return;
    if (parsed.kind === "all") {
      const ids = declaredToolIds(manifest, parsed.list);
      if (ids.size === 0) {
        out.push(
          appIssue(
            "warning",
            "ui.host_api.tools.empty_list",
            path,
            `${quote(ref)} grants nothing: ${parsed.list}_executas is empty`,
          ),
        );
      }
      return;
    }
    if (parsed.kind === "bare" && (ref === "invoke" || ref === "list")) {
      out.push(
        appIssue(
          "warning",
          "ui.host_api.tools.method_name",
          path,
          `${quote(ref)} is read as a tool_id, not a method: host_api.tools lists executa refs; use "required:*" to allow every required executa`,
        ),
      );
      return;
    }
    // bundled:<handle> resolves through app.json, which only the cross-file validator reads.
    if (parsed.toolId.startsWith("bundled:")) return;
    const ids = declaredToolIds(manifest, parsed.kind === "listed" ? parsed.list : "any");
    if (ids.has(parsed.toolId)) return;
    const where =
      parsed.kind === "listed"
        ? `${parsed.list}_executas`
        : "required_executas or optional_executas";
    out.push(
      appIssue(
        "error",
        "ui.host_api.tools.undeclared",
        path,
        `${quote(ref)} names tool_id ${quote(parsed.toolId)}, which is not in ${where}.${didYouMean(parsed.toolId, [...declaredToolIds(manifest, "any")])} Declare it there or use "required:*"`,
        formatSpecMessage("hostApiToolsUndeclared", { ref }).text,
      ),
    );
  });
  const agent = hostApi.agent;
  if (Array.isArray(agent)) {
    out.push(
      appIssue(
        "warning",
        "ui.host_api.agent.list",
        ["ui", "host_api", "agent"],
        'host_api.agent is structured: {"session": {"auto": true, "fixed": null}, "tools": [...]}; a method list enables no session submode',
      ),
    );
  } else if (agent !== undefined && agent !== null) {
    const session = agent.session;
    const fixed = session?.fixed;
    const enabled =
      session?.auto === true || (fixed !== undefined && fixed !== null && fixed !== false);
    if (!enabled) {
      out.push(
        appIssue(
          "warning",
          "ui.host_api.agent.no_submode",
          ["ui", "host_api", "agent"],
          'host_api.agent enables no session submode, so every agent.session.* call is denied; set "session": {"auto": true} or "fixed": {"client_ids": []}',
        ),
      );
    }
    // `agent.tools` holds sandbox tool names (R95) or executa tool ids (L6936), so only a
    // near-miss of a sandbox name is worth a word.
    const declared = declaredToolIds(manifest, "any");
    (agent.tools ?? []).forEach((tool, index) => {
      if ((AGENT_SANDBOX_TOOLS as readonly string[]).includes(tool) || declared.has(tool)) return;
      const hint = didYouMean(tool, AGENT_SANDBOX_TOOLS, 1);
      if (hint === "") return;
      out.push(
        appIssue(
          "warning",
          "ui.host_api.agent.unknown_tool",
          ["ui", "host_api", "agent", "tools", index],
          `${quote(tool)} is neither a sandbox agent tool nor a declared executa, so the platform drops it.${hint}`,
        ),
      );
    });
  }
  permissionWarnings(manifest, hostApi, out);
  return out;
}

/**
 * Ruling A2: `ui.host_api` is the runtime gate; `permissions` are shown at install. A grant
 * without its permission works, but the install screen under-reports it.
 */
function permissionWarnings(
  manifest: AppManifest,
  hostApi: NonNullable<UiSection["host_api"]>,
  out: AppIssue[],
): void {
  const declared = new Set<string>(manifest.permissions);
  const missing = new Map<string, string[]>();
  const note = (permission: string | undefined, method: string): void => {
    if (permission === undefined || declared.has(permission)) return;
    const methods = missing.get(permission) ?? [];
    methods.push(method);
    missing.set(permission, methods);
  };
  for (const [namespace, grant] of Object.entries(hostApi)) {
    if (!Array.isArray(grant) || namespace === "tools" || namespace === "credentials") continue;
    const tokens = grant.filter((token): token is string => typeof token === "string");
    for (const method of expandHostApiGrant(namespace, tokens)) {
      note(permissionForMethod(namespace, method), `${namespace}.${method}`);
    }
  }
  if ((hostApi.tools ?? []).length > 0) note("tools.invoke", "tools.invoke");
  for (const [permission, methods] of missing) {
    out.push(
      appIssue(
        "warning",
        "manifest.permission_missing",
        ["permissions"],
        `ui.host_api grants ${methods.join(", ")} but "permissions" lacks "${permission}"; the call works (host_api is the gate) but the install screen will not show it — add "${permission}"`,
      ),
    );
  }
}
