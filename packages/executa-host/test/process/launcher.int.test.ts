// The launcher hook: a caller's wrapper decides what runs for each start of a plugin (the
// agent's per-(user, tool) sandbox uses it), replacing the built-in supervisor.
import { describe, expect, it, onTestFinished } from "vitest";
import { ExecutaHost } from "../../src/host/executa-host.js";
import type { LaunchCommand, PluginLauncher } from "../../src/process/launcher.js";
import { FAST_TIMEOUTS, fixtureSpec } from "./helpers.js";

describe("a registered plugin's launcher", () => {
  it("wraps every start: the plugin runs what the launcher returned", async () => {
    const seen: LaunchCommand[] = [];
    const launcher: PluginLauncher = (request) => {
      seen.push(request);
      return {
        command: ["/usr/bin/env", "WRAPPED_BY=test-launcher", ...request.command],
        cwd: request.cwd,
        env: request.env,
        signalsAsExitCodes: false,
      };
    };
    const host = new ExecutaHost({ timeouts: FAST_TIMEOUTS });
    onTestFinished(() => host.close());
    const spec = fixtureSpec("echo.mjs");
    host.register(spec, { userId: "alice", env: { PATH: process.env.PATH }, launcher });
    const outcome = await host.invoke("alice", spec.toolId, "env", { name: "WRAPPED_BY" });
    expect(outcome).toMatchObject({ ok: true, data: { value: "test-launcher" } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.command).toEqual(spec.command);
    expect(seen[0]!.cwd).toBe(spec.cwd);
    // Another user's registration of the same tool gets no launcher: it is per registration.
    host.register(spec, { userId: "bob", env: { PATH: process.env.PATH } });
    const bob = await host.invoke("bob", spec.toolId, "env", { name: "WRAPPED_BY" });
    expect(bob).toMatchObject({ ok: true, data: { value: null } });
  });

  it("refuses the start with the launcher's own message when it throws", async () => {
    const host = new ExecutaHost({ timeouts: FAST_TIMEOUTS });
    onTestFinished(() => host.close());
    const spec = fixtureSpec("echo.mjs");
    host.register(spec, {
      userId: "alice",
      launcher: () => {
        throw new Error("no sandbox for this plugin: bwrap is missing");
      },
    });
    const outcome = await host.invoke("alice", spec.toolId, "echo", {});
    expect(outcome.ok).toBe(false);
    expect(JSON.stringify(outcome)).toContain("no sandbox for this plugin: bwrap is missing");
  });
});
