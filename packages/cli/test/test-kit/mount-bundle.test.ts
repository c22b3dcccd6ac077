import path from "node:path";
import { mkdirSync } from "node:fs";
import { toolAllowed } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import { HostApiError, mountBundle, MountBundleError } from "../../src/test-kit/index.js";
import { focusProject, MANIFEST, tempProject, TIMER_TOOL_ID } from "./project.js";

// A directory with no app.json, so nothing resolves `bundled:` unless a test makes a project.
const EMPTY_PROJECT = path.join(import.meta.dirname, "no-such-project");

describe("mountBundle — manifest object with mocks", () => {
  it("returns a tools.invoke mock's answer exactly as given and records the call", async () => {
    const answer = { success: true, data: { state: "running", remaining_seconds: 1500 } };
    const harness = await mountBundle({
      manifest: MANIFEST,
      projectDir: focusProject(),
      mocks: { "tools.invoke": () => answer },
    });

    const result = await harness.runtime.tools.invoke({
      tool_id: TIMER_TOOL_ID,
      method: "start",
      args: { duration_minutes: 25 },
    });

    expect(result).toBe(answer);
    expect(harness.calls.byNs("tools.invoke")).toHaveLength(1);
    const call = harness.calls.lastOf("tools.invoke");
    expect(call?.args).toMatchObject({ method: "start", tool_id: TIMER_TOOL_ID });
    expect(call?.outcome).toBe("ok");
    expect(call?.result).toBe(answer);
  });

  it("gives the mock the wire args and the runtime.call generic path the same answer", async () => {
    const seen: unknown[] = [];
    const harness = await mountBundle({
      manifest: MANIFEST,
      projectDir: focusProject(),
      mocks: {
        "chat.write_message": (args: unknown) => {
          seen.push(args);
          return { message_id: "m1" };
        },
      },
    });
    await expect(harness.runtime.chat.write_message("hello")).resolves.toEqual({
      message_id: "m1",
    });
    await expect(
      harness.runtime.call("chat", "write_message", { content: "again" }),
    ).resolves.toEqual({ message_id: "m1" });
    expect(seen).toEqual([{ content: "hello" }, { content: "again" }]);
  });

  it("denies a method outside ui.host_api with permission_denied, even when mocked", async () => {
    const harness = await mountBundle({
      manifest: MANIFEST,
      projectDir: EMPTY_PROJECT,
      mocks: { "fs.read": () => ({ content: "root:x:0:0" }) },
    });
    const denied = harness.runtime.fs.read({ path: "/etc/passwd" });
    await expect(denied).rejects.toThrow(HostApiError);
    await expect(denied).rejects.toMatchObject({ code: "permission_denied" });
    expect(harness.calls.last()?.outcome).toBe("denied");
    expect(harness.calls.last()?.error?.code).toBe("permission_denied");
  });

  it("denies a method the grant does not list within a granted namespace", async () => {
    const harness = await mountBundle({
      manifest: { ui: { host_api: { storage: ["get"] } } },
      projectDir: EMPTY_PROJECT,
    });
    await expect(harness.runtime.storage.get("k")).resolves.toEqual({ value: null, exists: false });
    await expect(harness.runtime.storage.set("k", 1)).rejects.toMatchObject({
      code: "permission_denied",
    });
    expect(harness.calls.all().map((c) => c.outcome)).toEqual(["ok", "denied"]);
  });

  it.each([
    [["read"], ["get", "list"], ["set", "delete"]],
    [["write"], ["set", "delete"], ["get", "list"]],
    [["*"], ["get", "set", "delete", "list"], []],
  ])("grant alias %j opens %j and keeps %j shut", async (grant, open, shut) => {
    const harness = await mountBundle({
      manifest: { ui: { host_api: { storage: grant } } },
      projectDir: EMPTY_PROJECT,
    });
    expect(harness.acl.methods("storage")).toEqual(
      ["get", "set", "delete", "list"].filter((m) => open.includes(m)),
    );
    for (const method of shut) {
      await expect(harness.runtime.call("storage", method, { key: "k" })).rejects.toMatchObject({
        code: "permission_denied",
      });
    }
    for (const method of open) {
      await expect(
        harness.runtime.call("storage", method, { key: "k", value: 1 }),
      ).resolves.toBeDefined();
    }
  });

  it("answers window.* with { ok: true } by default, whatever the grants", async () => {
    const harness = await mountBundle({
      manifest: { ui: { host_api: {} } },
      projectDir: EMPTY_PROJECT,
    });
    await expect(harness.runtime.window.set_title("Focus")).resolves.toEqual({ ok: true });
    await expect(harness.runtime.window.ready()).resolves.toEqual({ ok: true });
    expect(harness.calls.lastOf("window.set_title")?.args).toEqual({ title: "Focus" });
  });

  it("keeps storage in memory and takes positional and object arguments alike", async () => {
    const harness = await mountBundle({ manifest: MANIFEST, projectDir: EMPTY_PROJECT });
    const { storage } = harness.runtime;
    await expect(storage.set({ key: "a", value: { n: 1 } })).resolves.toMatchObject({ ok: true });
    await storage.set("b", [1, 2]);
    expect(await storage.get("a")).toEqual({ value: { n: 1 }, exists: true });
    expect(await storage.get({ key: "b" })).toEqual({ value: [1, 2], exists: true });
    const listed = (await storage.list({ prefix: "" })) as { items: { key: string }[] };
    expect(listed.items.map((item) => item.key)).toEqual(["a", "b"]);
    await storage.delete("a");
    expect(await storage.get("a")).toEqual({ value: null, exists: false });
    expect(harness.storage.get("b")).toEqual([1, 2]);
    expect(harness.calls.byNs("storage").map((c) => c.args)).toEqual([
      { key: "a", value: { n: 1 } },
      { key: "b", value: [1, 2] },
      { key: "a" },
      { key: "b" },
      { prefix: "" },
      { key: "a" },
      { key: "a" },
    ]);
  });

  it("stores a copy, so mutating the caller's object later changes nothing", async () => {
    const harness = await mountBundle({ manifest: MANIFEST, projectDir: EMPTY_PROJECT });
    const value = { n: 1 };
    await harness.runtime.storage.set("k", value);
    value.n = 2;
    expect(await harness.runtime.storage.get("k")).toEqual({ value: { n: 1 }, exists: true });
  });

  it("rejects a storage call without a key as invalid_arg and records it as an error", async () => {
    const harness = await mountBundle({ manifest: MANIFEST, projectDir: EMPTY_PROJECT });
    await expect(harness.runtime.call("storage", "get", {})).rejects.toMatchObject({
      code: "invalid_arg",
    });
    expect(harness.calls.last()?.outcome).toBe("error");
  });

  it("denies a granted method that has no mock and no default", async () => {
    const harness = await mountBundle({ manifest: MANIFEST, projectDir: focusProject() });
    await expect(harness.runtime.chat.write_message("hi")).rejects.toMatchObject({
      code: "permission_denied",
      message: expect.stringContaining("harness.mock"),
    });
    expect(harness.calls.last()?.outcome).toBe("denied");
  });

  it("harness.mock adds and replaces mocks at any time", async () => {
    const harness = await mountBundle({ manifest: MANIFEST, projectDir: EMPTY_PROJECT });
    harness.mock("chat.write_message", () => 1);
    expect(await harness.runtime.chat.write_message("x")).toBe(1);
    harness.mock("chat.write_message", () => 2);
    expect(await harness.runtime.chat.write_message("x")).toBe(2);
    harness.mock("storage.get", () => ({ value: "mocked", exists: true }));
    expect(await harness.runtime.storage.get("x")).toEqual({ value: "mocked", exists: true });
  });

  it("rejects with what a mock throws and records an error outcome", async () => {
    const harness = await mountBundle({
      manifest: MANIFEST,
      projectDir: EMPTY_PROJECT,
      mocks: {
        "chat.write_message": () => {
          throw new HostApiError("rate_limited", "slow down");
        },
      },
    });
    await expect(harness.runtime.chat.write_message("x")).rejects.toMatchObject({
      code: "rate_limited",
    });
    expect(harness.calls.last()).toMatchObject({
      outcome: "error",
      error: { code: "rate_limited", message: "slow down" },
    });
  });

  it("awaits async mocks", async () => {
    const harness = await mountBundle({
      manifest: MANIFEST,
      projectDir: EMPTY_PROJECT,
      mocks: { "chat.write_message": async () => Promise.resolve({ async: true }) },
    });
    expect(await harness.runtime.chat.write_message("x")).toEqual({ async: true });
  });

  it("refuses a mock key that is not ns.method", async () => {
    await expect(
      mountBundle({ manifest: MANIFEST, projectDir: EMPTY_PROJECT, mocks: { invoke: () => 1 } }),
    ).rejects.toThrow(MountBundleError);
  });
});

describe("mountBundle — events and wait", () => {
  it("delivers events.emit to runtime.on subscribers and stops after unsubscribe", async () => {
    const harness = await mountBundle({ manifest: MANIFEST, projectDir: EMPTY_PROJECT });
    const seen: unknown[] = [];
    const off = harness.runtime.on("entry_payload", (payload) => seen.push(payload));
    harness.events.emit("entry_payload", { mode: "deep_focus" });
    harness.events.emit("auth.refresh", { token: "xyz" });
    off();
    harness.events.emit("entry_payload", { mode: "ignored" });
    expect(seen).toEqual([{ mode: "deep_focus" }]);
    expect(harness.drainEvents().map((e) => e.name)).toEqual([
      "entry_payload",
      "auth.refresh",
      "entry_payload",
    ]);
    expect(harness.drainEvents()).toEqual([]);
  });

  it("maps wire events the way the SDK does", async () => {
    const harness = await mountBundle({ manifest: MANIFEST, projectDir: EMPTY_PROJECT });
    const states: unknown[] = [];
    harness.events.on("runtime_state_synced", (state) => states.push(state));
    expect(
      harness.events.emitWire({
        kind: "runtime_state_synced",
        window_uuid: harness.runtime.windowUuid,
        payload: { runtime_state: { a: 1 } },
      }),
    ).toBe(true);
    expect(
      harness.events.emitWire({
        kind: "runtime_state_synced",
        window_uuid: "another-window",
        payload: { runtime_state: { a: 2 } },
      }),
    ).toBe(false);
    expect(states).toEqual([{ a: 1 }]);
  });

  it("broadcasts runtime_state_synced after default storage writes and title_changed after set_title", async () => {
    const harness = await mountBundle({ manifest: MANIFEST, projectDir: EMPTY_PROJECT });
    const seen: unknown[] = [];
    harness.runtime.on("runtime_state_synced", (state) => seen.push(["state", state]));
    harness.runtime.on("title_changed", (payload) => seen.push(["title", payload]));
    await harness.runtime.storage.set("a", 1);
    await harness.runtime.storage.get("a");
    await harness.runtime.storage.delete("a");
    await harness.runtime.window.set_title("Focus");
    expect(seen).toEqual([
      ["state", { a: 1 }],
      ["state", {}],
      ["title", { title: "Focus" }],
    ]);
  });

  it("broadcasts nothing for a mocked storage write", async () => {
    const harness = await mountBundle({
      manifest: MANIFEST,
      projectDir: EMPTY_PROJECT,
      mocks: { "storage.set": () => ({ ok: true }) },
    });
    await harness.runtime.storage.set("a", 1);
    await harness.wait(0);
    expect(harness.drainEvents()).toEqual([]);
  });

  it("survives a runtime_state_synced handler that writes again", async () => {
    const harness = await mountBundle({ manifest: MANIFEST, projectDir: EMPTY_PROJECT });
    let writes = 0;
    harness.runtime.on("runtime_state_synced", () => {
      if (++writes < 3) void harness.runtime.storage.set("n", writes);
    });
    await harness.runtime.storage.set("n", 0);
    for (let i = 0; i < 5; i++) await harness.wait(0);
    expect(writes).toBe(3);
    expect(harness.storage.get("n")).toBe(2);
  });

  it("feeds rpc.stream frames to a stream a mocked llm.stream opened", async () => {
    const harness = await mountBundle({
      manifest: { ui: { host_api: { llm: ["stream"] } } },
      projectDir: EMPTY_PROJECT,
      mocks: { "llm.stream": () => ({ stream_id: "s1" }) },
    });
    const stream = harness.runtime.llm.stream({ messages: [{ role: "user", content: "hi" }] });
    await stream.started;
    harness.events.emit("rpc.stream", { stream_id: "s1", seq: 0, payload: "a", done: false });
    harness.events.emit("rpc.stream", { stream_id: "s1", seq: 2, payload: "c", done: true });
    harness.events.emit("rpc.stream", { stream_id: "s1", seq: 1, payload: "b", done: false });
    const frames: unknown[] = [];
    for await (const frame of stream) frames.push(frame);
    expect(frames).toEqual(["a", "b", "c"]);
  });

  it("wait(0) lets a handler's promise chain finish", async () => {
    const harness = await mountBundle({ manifest: MANIFEST, projectDir: EMPTY_PROJECT });
    // A bundle that stores what it is opened with, asynchronously, from an event handler.
    harness.runtime.on("entry_payload", (payload: { mode: string }) => {
      void harness.runtime.storage
        .get("opened")
        .then(() => harness.runtime.storage.set("mode", payload.mode));
    });
    harness.events.emit("entry_payload", { mode: "deep_focus" });
    expect(harness.storage.has("mode")).toBe(false);
    await harness.wait(0);
    expect(harness.storage.get("mode")).toBe("deep_focus");
  });
});

describe("mountBundle — bundled executas", () => {
  it("lets tests call a bundled executa by the tool_id in its executa.json", async () => {
    const harness = await mountBundle({
      manifest: MANIFEST,
      projectDir: focusProject(),
      mocks: { "tools.invoke": ({ tool_id }: { tool_id: string }) => ({ tool_id }) },
    });
    expect(harness.acl.toolIds).toEqual({ "focus-session": TIMER_TOOL_ID });
    await expect(harness.runtime.tools.invoke(TIMER_TOOL_ID, { action: "start" })).resolves.toEqual(
      {
        tool_id: TIMER_TOOL_ID,
      },
    );
    // The ref form resolves to the same id before the mock sees it.
    await expect(
      harness.runtime.call("tools", "invoke", { tool_id: "bundled:focus-session", method: "x" }),
    ).resolves.toEqual({ tool_id: TIMER_TOOL_ID });
  });

  it("denies a tool the grant does not name", async () => {
    const harness = await mountBundle({
      manifest: MANIFEST,
      projectDir: focusProject(),
      mocks: { "tools.invoke": () => ({}) },
    });
    await expect(
      harness.runtime.tools.invoke({ tool_id: "tool-someone-else-87654321" }),
    ).rejects.toMatchObject({ code: "permission_denied" });
    expect(harness.calls.last()?.outcome).toBe("denied");
  });

  it("cannot resolve the tool_id without app.json, as anna-app dev could not", async () => {
    const harness = await mountBundle({
      manifest: MANIFEST,
      projectDir: tempProject({
        "executas/focus-session/executa.json": { tool_id: TIMER_TOOL_ID },
      }),
      mocks: { "tools.invoke": () => ({}) },
    });
    expect(harness.acl.toolIds).toEqual({});
    await expect(harness.runtime.tools.invoke({ tool_id: TIMER_TOOL_ID })).rejects.toMatchObject({
      code: "permission_denied",
    });
  });

  it("reads app.json and executa.json with a BOM, and skips a handle without a tool_id", async () => {
    const dir = tempProject({
      "app.json": `\uFEFF${JSON.stringify({
        bundled_executas: { a: { path: "executas/a" }, b: { path: "executas/b" } },
      })}`,
      "executas/a/executa.json": `\uFEFF${JSON.stringify({ tool_id: "tool-a-1" })}`,
      "executas/b/executa.json": { type: "tool" },
    });
    const harness = await mountBundle({ manifest: MANIFEST, projectDir: dir });
    expect(harness.acl.toolIds).toEqual({ a: "tool-a-1" });
  });

  it("reaches every declared executa when host_api.tools is omitted or empty, and only those (L6386)", async () => {
    for (const tools of [undefined, []]) {
      const harness = await mountBundle({
        manifest: {
          required_executas: ["bundled:focus-session"],
          ui: { host_api: tools === undefined ? {} : { tools } },
        },
        projectDir: focusProject(),
        mocks: { "tools.invoke": () => ({ ok: 1 }) },
      });
      await expect(harness.runtime.tools.invoke({ tool_id: TIMER_TOOL_ID })).resolves.toEqual({
        ok: 1,
      });
      await expect(
        harness.runtime.tools.invoke({ tool_id: "tool-undeclared-87654321" }),
      ).rejects.toMatchObject({ code: "permission_denied" });
      expect(harness.acl.methods("tools")).toContain("list");
    }
  });

  it("denies a tool host_api.tools names but the manifest does not declare, as the dispatcher does", async () => {
    const harness = await mountBundle({
      manifest: { ui: { host_api: { tools: ["required:tool-granted-only-1"] } } },
      projectDir: EMPTY_PROJECT,
      mocks: { "tools.invoke": () => ({}) },
    });
    await expect(
      harness.runtime.tools.invoke({ tool_id: "tool-granted-only-1" }),
    ).rejects.toMatchObject({ code: "permission_denied" });
    expect(harness.calls.last()?.outcome).toBe("denied");
  });

  it("agrees with the dispatcher's gate (hostApiAllows + toolAllowed) on every tools.invoke case", async () => {
    const cases = [
      { tools: ["optional:*"], list: "optional_executas", allowed: true },
      { tools: ["optional:*"], list: "required_executas", allowed: false },
      { tools: ["required:*"], list: "required_executas", allowed: true },
      { tools: ["tool-x-1"], list: "optional_executas", allowed: true },
      { tools: ["tool-y-1"], list: "required_executas", allowed: false },
    ];
    for (const { tools, list, allowed } of cases) {
      const manifest = { [list]: ["tool-x-1"], ui: { host_api: { tools } } };
      const harness = await mountBundle({ manifest, projectDir: EMPTY_PROJECT });
      expect({
        tools,
        list,
        allowed: harness.acl.allows("tools", "invoke", { tool_id: "tool-x-1" }),
      }).toEqual({
        tools,
        list,
        allowed,
      });
      expect(
        toolAllowed(
          {
            required_executas: [],
            optional_executas: [],
            ...manifest,
            ui: { host_api: { tools } },
          },
          "tool-x-1",
        ),
      ).toBe(allowed);
    }
  });
});

describe("mountBundle — manifest path with a bundle folder", () => {
  it("loads the manifest from disk, resolves bundled ids next to it, and drains events", async () => {
    const dir = focusProject();
    mkdirSync(path.join(dir, "bundle"), { recursive: true });
    const harness = await mountBundle({
      manifest: path.join(dir, "manifest.json"),
      bundle: path.join(dir, "bundle"),
    });
    expect(harness.projectDir).toBe(dir);
    expect(harness.runtime.appId).toBe("focus-flow");
    expect(harness.runtime.viewMeta).toEqual({ name: "main", title: "Focus" });
    expect(harness.bundleDir).toBe(path.join(dir, "bundle"));
    expect(harness.acl.toolIds).toEqual({ "focus-session": TIMER_TOOL_ID });

    await harness.call("storage", "set", { key: "ping", value: 1 });
    await expect(harness.call("storage", "get", { key: "ping" })).resolves.toEqual({
      value: 1,
      exists: true,
    });
    harness.events.emit("entry_payload", { mode: "deep_focus" });
    expect(harness.drainEvents()).toEqual([
      { name: "runtime_state_synced", payload: { ping: 1 } },
      { name: "entry_payload", payload: { mode: "deep_focus" } },
    ]);
    await harness.close();
    await expect(harness.call("storage", "get", { key: "ping" })).rejects.toMatchObject({
      code: "closed",
    });
  });

  it("says which file it could not read", async () => {
    const missing = path.join(EMPTY_PROJECT, "manifest.json");
    await expect(mountBundle({ manifest: missing })).rejects.toThrow(
      new MountBundleError(`mountBundle: cannot read the manifest at ${missing}`),
    );
  });

  it("names the line and column of a syntax error in the manifest", async () => {
    const dir = tempProject({ "manifest.json": '{\n  "schema": 2,\n  "id" "focus-flow"\n}\n' });
    const file = path.join(dir, "manifest.json");
    const error = await mountBundle({ manifest: file }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MountBundleError);
    expect((error as Error).message).toMatch(/:3:8: expected ':' after the key "id"$/);
    expect((error as Error).message.startsWith(`mountBundle: ${file}:3:8: `)).toBe(true);
  });
});
