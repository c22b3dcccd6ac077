import { afterEach, describe, expect, it } from "vitest";
import { PluginProcess } from "../../src/process/plugin-process.js";
import type { PluginProcessOptions } from "../../src/process/plugin-process.js";
import { expectGroupGone, FAST_TIMEOUTS, fixtureSpec, groupExists } from "./helpers.js";

const open: PluginProcess[] = [];

function plugin(fixture: string, options: Partial<PluginProcessOptions> = {}): PluginProcess {
  const created = new PluginProcess({
    spec: fixtureSpec(fixture),
    userId: "u1",
    timeouts: FAST_TIMEOUTS,
    restart: { backoffBaseMs: 20 },
    ...options,
  });
  open.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

describe("PluginProcess with a well-behaved plugin", () => {
  it("starts lazily, negotiates v2 and echoes H9 params", async () => {
    const echo = plugin("echo.mjs");
    expect(echo.state).toBe("idle");
    const outcome = await echo.invoke("echo", { city: "Oslo" }, { credentials: { KEY: "k" } });
    expect(outcome.ok).toBe(true);
    expect(echo.state).toBe("ready");
    expect(echo.protocolVersion).toBe("2.0");
    const params = (outcome as { data: { params: Record<string, unknown> } }).data.params;
    expect(params.tool).toBe("echo");
    expect(params.name).toBe("echo");
    expect(params.arguments).toEqual({ city: "Oslo" });
    const context = params.context as Record<string, unknown>;
    expect(params.invoke_id).toBe(context.invoke_id);
    expect(context.plugin_name).toBe("echo");
    expect(context.credentials).toEqual({ KEY: "k" });
    expect(context.deadline_ms).toBeGreaterThan(Date.now());
    const pid = echo.pid!;
    await echo.close();
    expect(echo.state).toBe("stopped");
    await expectGroupGone(pid);
    expect(groupExists(pid)).toBe(false);
  });
});
