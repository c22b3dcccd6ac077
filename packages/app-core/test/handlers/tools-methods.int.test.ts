// tools.* against a real plugin: examples/executas/ts-notes under ExecutaHost, launched the way
// `anna-app dev` launches it (detectLaunchSpec).
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { detectLaunchSpec, ExecutaHost, type LaunchSpec } from "@anna-ai/executa-host";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invokeTimeout, splitToolId } from "../../src/index.js";
import { openDispatcher } from "../helpers.js";

const NOTES_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../../../../examples/executas/ts-notes",
);
const NOTES_ID = "tool-examples-ts-notes-00000001";

describe("tools.* with ts-notes", () => {
  let spec: LaunchSpec;
  const host = new ExecutaHost();
  beforeAll(async () => {
    spec = await detectLaunchSpec(NOTES_DIR);
  });
  afterAll(() => host.close());

  async function session(toolsGrant: string[] = ["required:*"]) {
    const opened = await openDispatcher({ tools: toolsGrant }, { host });
    host.register(spec, { userId: opened.dispatcher.userId });
    return opened;
  }

  it("invokes a tool and resolves with the plugin's data", async () => {
    const { dispatcher, token } = await session();
    expect(spec.toolId).toBe(NOTES_ID);
    const out = await dispatcher.call(token, "tools", "invoke", {
      tool_id: NOTES_ID,
      method: "echo",
      args: { text: "hi" },
    });
    expect(out).toEqual({ ok: true, result: { text: "hi", api_key: null } });
    // The legacy `plugin__tool` spelling names the same tool.
    expect(
      await dispatcher.call(token, "tools", "invoke", {
        tool_id: `${NOTES_ID}__echo`,
        args: { text: "x" },
      }),
    ).toMatchObject({ ok: true, result: { text: "x" } });
  });

  it("turns a tool failure into tool_failed carrying the plugin's error (A4)", async () => {
    const { dispatcher, token } = await session();
    const out = await dispatcher.call(token, "tools", "invoke", {
      tool_id: NOTES_ID,
      method: "add_note",
      args: { text: "   " },
    });
    expect(out).toMatchObject({
      ok: false,
      error: {
        code: "tool_failed",
        message: expect.stringContaining("a note needs some text"),
        details: { tool_id: NOTES_ID, method: "add_note" },
      },
    });
  });

  it("lists the granted executas with their status and denies a tool outside the grant", async () => {
    const { dispatcher, token } = await session(["optional:*"]);
    expect(await dispatcher.call(token, "tools", "list")).toEqual({
      ok: true,
      result: { tools: [] },
    });
    expect(
      await dispatcher.call(token, "tools", "invoke", {
        tool_id: NOTES_ID,
        method: "echo",
        args: {},
      }),
    ).toMatchObject({ ok: false, error: { code: "permission_denied" } });
    const granted = await session([NOTES_ID]);
    expect(await granted.dispatcher.call(granted.token, "tools", "list")).toEqual({
      ok: true,
      result: { tools: [{ tool_id: NOTES_ID, status: "available" }] },
    });
  });

  it("answers invalid_arg below the 1 s minimum and executa_unavailable for an unregistered plugin", async () => {
    const { dispatcher, token } = await session();
    expect(
      await dispatcher.call(token, "tools", "invoke", {
        tool_id: NOTES_ID,
        method: "echo",
        timeoutMs: 500,
      }),
    ).toMatchObject({ ok: false, error: { code: "invalid_arg" } });
    expect(
      await dispatcher.call(token, "tools", "invoke", {
        tool_id: NOTES_ID,
        method: "echo",
        timeoutMs: true,
      }),
    ).toMatchObject({ ok: false, error: { code: "invalid_arg" } });
    expect(await dispatcher.call(token, "tools", "invoke", { tool_id: NOTES_ID })).toMatchObject({
      ok: false,
      error: { code: "invalid_arg" },
    });
    const stranger = await openDispatcher({ tools: ["required:*"] }, { host, userId: "nobody" });
    expect(
      await stranger.dispatcher.call(stranger.token, "tools", "invoke", {
        tool_id: NOTES_ID,
        method: "echo",
        args: { text: "x" },
      }),
    ).toMatchObject({ ok: false, error: { code: "executa_unavailable" } });
  });
});

describe("the invoke timeout policy", () => {
  it("clamps above 90 s, defaults to the declared timeout, else 65 s", () => {
    expect(invokeTimeout(120_000, undefined)).toEqual({ timeoutMs: 90_000, requestedMs: 120_000 });
    expect(invokeTimeout(5_000, 300)).toEqual({ timeoutMs: 5_000, requestedMs: 5_000 });
    expect(invokeTimeout(undefined, 120)).toEqual({ timeoutMs: 90_000, requestedMs: null });
    expect(invokeTimeout(null, 10)).toEqual({ timeoutMs: 10_000, requestedMs: null });
    expect(invokeTimeout(undefined, undefined)).toEqual({ timeoutMs: 65_000, requestedMs: null });
    expect(() => invokeTimeout(999, undefined)).toThrow(/at least 1000/);
  });

  it("splits legacy tool ids on the first __ or .", () => {
    expect(splitToolId("notes__add")).toEqual({ toolId: "notes", tool: "add" });
    expect(splitToolId("notes.add.x")).toEqual({ toolId: "notes", tool: "add.x" });
    expect(splitToolId("tool-abc-def")).toBeUndefined();
  });
});
