import { AGENT_SANDBOX_TOOLS } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import { platformBuiltins } from "../../src/platform-tools/builtins.js";
import {
  platformToolsFor,
  PlatformRegimeError,
} from "../../src/platform-tools/platform-tools-for.js";
import type { AgentTool } from "../../src/turns/types.js";

const builtins = platformBuiltins({
  workspaceRoot: "/nonexistent/workspaces",
  search: undefined,
  attachment: () => Promise.resolve(undefined),
});

function executaTool(toolId: string, tool: string): AgentTool {
  return {
    name: `${toolId}__${tool}`,
    parameters: { type: "object" },
    source: { kind: "executa", toolId, tool },
    execute: () => Promise.resolve({ output: null }),
  };
}

const names = (tools: readonly AgentTool[]) => tools.map((t) => t.name);

describe("platformToolsFor", () => {
  it("serves every built-in under its registry name (web_fetch besides)", () => {
    for (const tool of builtins) {
      if (tool.name !== "web_fetch") expect(AGENT_SANDBOX_TOOLS, tool.name).toContain(tool.name);
    }
    expect(names(builtins)).toHaveLength(14);
  });

  it("sandbox: intersects the registry, the manifest, the user's grant and allowed_tools", () => {
    const resolved = platformToolsFor({
      regime: "sandbox",
      builtins,
      appAllowList: ["fs_read_file", "fs_write_file", "doc_read", "web_search", "made_up_tool"],
      userGrant: ["fs_read_file", "fs_write_file", "doc_read"],
      sessionAllowList: ["fs_read_file", "doc_read", "web_search"],
    });
    expect(names(resolved.tools)).toEqual(["doc_read", "fs_read_file"]);
    expect(resolved.grantedTools).toEqual(["doc_read", "fs_read_file"]);
    expect(resolved.warnings).toEqual([]);
    const blocked = Object.fromEntries(resolved.catalog.map((e) => [e.name, e.blocked_by ?? "ok"]));
    expect(blocked).toMatchObject({
      doc_read: "ok",
      fs_read_file: "ok",
      fs_write_file: "allowed_tools",
      web_search: "user_grant",
      sheet_read: "manifest",
    });
    // Unknown names are dropped silently: not in the catalog, not an error.
    expect(resolved.catalog.map((e) => e.name)).not.toContain("made_up_tool");
    expect(resolved.catalog).toHaveLength(25);
  });

  it("sandbox: a single allowed tool makes a read-only agent (forum #192)", () => {
    const resolved = platformToolsFor({
      regime: "sandbox",
      builtins,
      appAllowList: [...AGENT_SANDBOX_TOOLS],
      userGrant: "*",
      sessionAllowList: ["fs_read_file"],
    });
    expect(names(resolved.tools)).toEqual(["fs_read_file"]);
  });

  it("sandbox: a per-run allowed_tools narrows the run, not the session", () => {
    const resolved = platformToolsFor({
      regime: "sandbox",
      builtins,
      appAllowList: ["fs_read_file", "fs_list_directory", "fs_write_file"],
      userGrant: "*",
      runAllowList: ["fs_list_directory", "exec_run"],
    });
    expect(names(resolved.tools)).toEqual(["fs_list_directory"]);
    expect(resolved.grantedTools).toEqual(["fs_read_file", "fs_write_file", "fs_list_directory"]);
  });

  it("sandbox: harness PAT sessions keep only dev_safe tools", () => {
    const resolved = platformToolsFor({
      regime: "sandbox",
      builtins,
      appAllowList: ["fs_read_file", "fs_write_file", "fs_delete_file", "sheet_read"],
      userGrant: "*",
      devSafeOnly: true,
    });
    expect(names(resolved.tools)).toEqual(["sheet_read", "fs_read_file"]);
    expect(resolved.catalog.find((e) => e.name === "fs_delete_file")?.blocked_by).toBe("dev_safe");
  });

  it("sandbox: registry tools this server does not serve are blocked, and no tools warns", () => {
    const resolved = platformToolsFor({
      regime: "sandbox",
      builtins,
      appAllowList: ["browser_navigate", "exec_run"],
      userGrant: "*",
    });
    expect(resolved.tools).toEqual([]);
    expect(resolved.catalog.find((e) => e.name === "browser_navigate")?.blocked_by).toBe(
      "not_served",
    );
    expect(resolved.warnings.map((w) => w.code)).toEqual(["NO_TOOLS_AVAILABLE"]);
    const none = platformToolsFor({ regime: "sandbox", builtins, userGrant: "*" });
    expect(none.tools).toEqual([]);
    expect(none.warnings[0]?.message).toMatch(/only answer in text/);
  });

  it("inherit: every built-in plus the user's executas, granted_tools ['*'], run list ignored", () => {
    const executas = [executaTool("tool-a", "search"), executaTool("tool-b", "send")];
    const resolved = platformToolsFor({
      regime: "inherit",
      builtins,
      userGrant: [],
      inheritGranted: true,
      executaTools: executas,
      runAllowList: ["fs_read_file"],
    });
    expect(resolved.grantedTools).toEqual(["*"]);
    expect(names(resolved.tools)).toEqual([...names(builtins), "tool-a__search", "tool-b__send"]);
    const pinned = platformToolsFor({
      regime: "inherit",
      builtins,
      userGrant: [],
      inheritGranted: true,
      executaTools: executas,
      executaAllowList: ["tool-b"],
    });
    expect(names(pinned.tools).filter((n) => n.includes("__"))).toEqual(["tool-b__send"]);
  });

  it("inherit: an executa tool named like a built-in is left out with a warning", () => {
    const clash = { ...executaTool("tool-x", "read"), name: "fs_read_file" };
    const resolved = platformToolsFor({
      regime: "inherit",
      builtins,
      userGrant: [],
      inheritGranted: true,
      executaTools: [clash],
    });
    expect(resolved.tools.filter((t) => t.name === "fs_read_file")).toHaveLength(1);
    expect(resolved.tools.find((t) => t.name === "fs_read_file")?.source.kind).toBe("platform");
    expect(resolved.warnings.map((w) => w.code)).toEqual(["TOOL_NAME_CONFLICT"]);
  });

  it("inherit: refused without the user's grant, saying what to do instead", () => {
    expect(() => platformToolsFor({ regime: "inherit", builtins, userGrant: "*" })).toThrow(
      PlatformRegimeError,
    );
    expect(() => platformToolsFor({ regime: "inherit", builtins, userGrant: "*" })).toThrow(
      /sandbox session/,
    );
  });
});
