import { HOST_API_METHODS } from "@anna-ai/app-schema";
import { afterEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import {
  type AnnaAppRuntime,
  type AppsDeckChange,
  connect,
  HostApiError,
  HostRpcError,
  type InstalledApp,
} from "../src/index.js";
import { FakeHost, NO_ANSWER, WINDOW_UUID, WireError, wireEvent } from "./helpers/fake-host.js";

/** A host that answers every call with `{echo: args}` unless a handler says otherwise. */
function echoHost(): FakeHost {
  const host = new FakeHost();
  for (const [ns, methods] of Object.entries(HOST_API_METHODS)) {
    for (const method of methods as readonly string[]) {
      const key = `${ns}.${method}`;
      if (!host.handlers.has(key)) host.handle(key, (request) => ({ echo: request.args }));
    }
  }
  return host;
}

async function withRuntime(
  host: FakeHost,
  body: (anna: AnnaAppRuntime) => Promise<void>,
): Promise<void> {
  const anna = await connect(host.connectOptions());
  try {
    await body(anna);
  } finally {
    anna.close();
  }
}

function lookup(anna: AnnaAppRuntime, ns: string, method: string): unknown {
  let node: unknown = (anna as unknown as Record<string, unknown>)[ns];
  for (const part of method.split("."))
    node = (node as Record<string, unknown> | undefined)?.[part];
  return node;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("namespace proxies", () => {
  it("expose every method of the Host API table and send exactly its ns and method", async () => {
    const host = echoHost();
    await withRuntime(host, async (anna) => {
      for (const [ns, methods] of Object.entries(HOST_API_METHODS)) {
        for (const method of methods as readonly string[]) {
          const fn = lookup(anna, ns, method);
          expect(typeof fn, `${ns}.${method}`).toBe("function");
          if (ns === "llm" && method === "stream") continue; // answers with a stream, tested below
          await (fn as (args: object) => Promise<unknown>)({ probe: `${ns}.${method}` });
          const last = host.requests[host.requests.length - 1];
          expect({ ns: last?.ns, method: last?.method, args: last?.args }).toEqual({
            ns,
            method,
            args: { probe: `${ns}.${method}` },
          });
        }
      }
    });
  });

  it("send {} when called without arguments, never null", async () => {
    const host = echoHost();
    await withRuntime(host, async (anna) => {
      await anna.tools.list();
      await anna.window.focus();
      await anna.storage.list();
      expect(host.requests.slice(-3).map((r) => r.args)).toEqual([{}, {}, {}]);
    });
  });

  const positional: Array<
    [string, (anna: AnnaAppRuntime) => Promise<unknown>, Record<string, unknown>]
  > = [
    ["storage.get", (a) => a.storage.get("notes"), { key: "notes" }],
    [
      "storage.set",
      (a) => a.storage.set("notes", { text: "x" }),
      { key: "notes", value: { text: "x" } },
    ],
    ["storage.delete", (a) => a.storage.delete("notes"), { key: "notes" }],
    ["storage.list", (a) => a.storage.list("draft/"), { prefix: "draft/" }],
    ["window.set_title", (a) => a.window.set_title("Editing"), { title: "Editing" }],
    ["window.resize", (a) => a.window.resize(800, 600), { w: 800, h: 600 }],
    ["window.close", (a) => a.window.close("user_done"), { reason: "user_done" }],
    [
      "window.open_view",
      (a) => a.window.open_view("settings", { tab: 2 }),
      { view: "settings", payload: { tab: 2 } },
    ],
    [
      "window.report_error",
      (a) => a.window.report_error("boom", "at x"),
      { message: "boom", stack: "at x" },
    ],
    ["tools.getJob", (a) => a.tools.getJob("tjob_1"), { jobId: "tjob_1" }],
    [
      "tools.cancelJob",
      (a) => a.tools.cancelJob("tjob_1", "user"),
      { jobId: "tjob_1", reason: "user" },
    ],
    ["files.download_url", (a) => a.files.download_url("a/b.txt"), { path: "a/b.txt" }],
    ["files.delete", (a) => a.files.delete("a/b.txt"), { path: "a/b.txt" }],
    ["files.list", (a) => a.files.list("a/"), { prefix: "a/" }],
    ["chat.write_message", (a) => a.chat.write_message("hello"), { content: "hello" }],
    ["llm.embed", (a) => a.llm.embed(["a", "b"]), { input: ["a", "b"] }],
    ["image.generate", (a) => a.image.generate("a cat"), { prompt: "a cat" }],
    ["upload.confirm", (a) => a.upload.confirm("r2/key"), { r2_key: "r2/key" }],
    ["web.search", (a) => a.web.search("anna"), { query: "anna" }],
    ["web.fetch", (a) => a.web.fetch(["https://example.com"]), { urls: ["https://example.com"] }],
    [
      "credentials.get_token",
      (a) => a.credentials.get_token("google", "acc-1"),
      { provider: "google", account_id: "acc-1" },
    ],
    [
      "agent.session.history",
      (a) => a.agent.session.history("aps_1"),
      { app_session_uuid: "aps_1" },
    ],
  ];

  it.each(positional)("accept the positional form of %s", async (key, invoke, expected) => {
    const host = echoHost();
    await withRuntime(host, async (anna) => {
      await invoke(anna);
      const [ns, ...rest] = key.split(".");
      const last = host.requests[host.requests.length - 1];
      expect(last).toMatchObject({ ns, method: rest.join(".") });
      expect(last?.args).toEqual(expected);
    });
  });

  it("accept the object form with options, and take timeoutMs from them", async () => {
    const host = echoHost();
    await withRuntime(host, async (anna) => {
      await anna.storage.set({ key: "k", value: 1 }, { timeoutMs: 1234 });
      await anna.storage.get("k", { timeoutMs: 4321 });
      const [set, get] = host.requests.slice(-2);
      expect(set).toMatchObject({ args: { key: "k", value: 1 }, timeout_ms: 1234 });
      expect(get).toMatchObject({ args: { key: "k" }, timeout_ms: 4321 });
    });
  });

  it("use the Reference's per-namespace default timeouts", async () => {
    const host = echoHost();
    await withRuntime(host, async (anna) => {
      await anna.tools.list();
      await anna.llm.complete({ messages: [] });
      await anna.web.search("q");
      await anna.agent.session.list();
      await anna.storage.get("k");
      await anna.tools.invoke({ tool_id: "t.x", timeoutMs: 90_000 });
      expect(host.requests.slice(-6).map((r) => r.timeout_ms)).toEqual([
        70_000, 180_000, 60_000, 300_000, 30_000, 95_000,
      ]);
    });
  });

  it("turn report_error(err) into {message, stack}", async () => {
    const host = echoHost();
    await withRuntime(host, async (anna) => {
      const error = new Error("kaput");
      await anna.window.report_error(error);
      expect(host.requests[host.requests.length - 1]?.args).toEqual({
        message: "kaput",
        stack: error.stack,
      });
    });
  });

  it("reject a positional call of a method that has no positional form, without sending", async () => {
    const host = echoHost();
    await withRuntime(host, async (anna) => {
      const before = host.requests.length;
      const call = (anna.files.upload_init as unknown as (path: string) => Promise<unknown>)(
        "a.txt",
      );
      await expect(call).rejects.toMatchObject({ code: "invalid_arg" });
      expect(host.requests).toHaveLength(before);
    });
  });

  it("route the camelCase web aliases to the snake_case methods", async () => {
    const host = echoHost();
    await withRuntime(host, async (anna) => {
      await anna.web.imageSearch({ query: "cats" });
      await anna.web.imageFetch({ url: "https://x/y.png" });
      expect(host.requests.slice(-2).map((r) => `${r.ns}.${r.method}`)).toEqual([
        "web.image_search",
        "web.image_fetch",
      ]);
    });
  });

  it("type apps.* with the dispatcher's argument names and send the positional forms as them", async () => {
    const host = echoHost();
    await withRuntime(host, async (anna) => {
      // @ts-expect-error -- the dispatcher's name is app_ref
      void anna.apps.get({ id: "notes" }).catch(() => undefined);
      expectTypeOf(anna.apps.deck.add).returns.resolves.toEqualTypeOf<AppsDeckChange>();
      expectTypeOf<Awaited<ReturnType<typeof anna.apps.list>>>().toEqualTypeOf<{
        apps: InstalledApp[];
      }>();
      await anna.apps.launch("@me/notes", "editor", { id: 7 });
      await anna.apps.deck.reorder(["b", "a"]);
      await anna.web.imageSearch("tides");
      expect(host.requests.slice(-3).map((r) => [`${r.ns}.${r.method}`, r.args])).toEqual([
        ["apps.launch", { app_ref: "@me/notes", view: "editor", payload: { id: 7 } }],
        ["apps.deck.reorder", { app_ids: ["b", "a"] }],
        ["web.image_search", { query: "tides" }],
      ]);
    });
  });

  it("offer the generic call(ns, method, args) with the same semantics", async () => {
    const host = echoHost().handle("tools.invoke", () => ({ success: true, data: { pong: true } }));
    await withRuntime(host, async (anna) => {
      await expect(anna.call("storage", "get", { key: "k" })).resolves.toEqual({
        echo: { key: "k" },
      });
      await expect(anna.call("tools", "invoke", { tool_id: "t.x" })).resolves.toEqual({
        pong: true,
      });
      await expect(anna.call("prefs", "get")).resolves.toEqual({ echo: {} });
    });
  });
});

describe("errors (A3)", () => {
  it("reject with HostApiError {code, message, details}, also known as HostRpcError", async () => {
    const host = echoHost().handle("chat.append_artifact", () => {
      throw new WireError("permission_denied", "chat.append_artifact is not granted", {
        ns: "chat",
      });
    });
    await withRuntime(host, async (anna) => {
      const error: unknown = await anna.chat
        .append_artifact({ artifact: { kind: "text" } })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HostApiError);
      expect(error).toBeInstanceOf(HostRpcError);
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({
        name: "HostApiError",
        code: "permission_denied",
        message: "chat.append_artifact is not granted",
        details: { ns: "chat" },
      });
      expect((error as HostApiError).toJSON()).toEqual({
        code: "permission_denied",
        message: "chat.append_artifact is not granted",
        details: { ns: "chat" },
      });
    });
  });

  it("resolve with the result itself, not an {ok, result} envelope", async () => {
    const host = echoHost().handle("storage.get", () => ({ value: "v", exists: true }));
    await withRuntime(host, async (anna) => {
      await expect(anna.storage.get("k")).resolves.toEqual({ value: "v", exists: true });
    });
  });
});

describe("tools.invoke (A4)", () => {
  it("resolves with the plugin's data when success is true, through both envelope layers", async () => {
    const replies: unknown[] = [
      { success: true, data: { state: "running" } },
      { success: true, data: { success: true, data: { nested: 1 } } },
      { greeting: "hi" },
      { success: true, count: 3 },
    ];
    const host = echoHost().handle("tools.invoke", () => replies.shift());
    await withRuntime(host, async (anna) => {
      await expect(anna.tools.invoke({ tool_id: "t.x" })).resolves.toEqual({ state: "running" });
      await expect(anna.tools.invoke({ tool_id: "t.x" })).resolves.toEqual({ nested: 1 });
      await expect(anna.tools.invoke({ tool_id: "t.x" })).resolves.toEqual({ greeting: "hi" });
      // Not an envelope: a payload that happens to have `success` among other keys.
      await expect(anna.tools.invoke({ tool_id: "t.x" })).resolves.toEqual({
        success: true,
        count: 3,
      });
    });
  });

  it("rejects with tool_failed carrying the plugin's error when success is false", async () => {
    const host = echoHost().handle("tools.invoke", () => ({
      success: false,
      error: { code: "E_BAD", message: "bad input" },
    }));
    await withRuntime(host, async (anna) => {
      const error: unknown = await anna.tools
        .invoke({ tool_id: "t.x", method: "m" })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HostApiError);
      expect(error).toMatchObject({
        code: "tool_failed",
        message: "bad input",
        details: { code: "E_BAD", message: "bad input" },
      });
    });
  });

  it("passes the host's own errors through (tool_timeout with its details)", async () => {
    const host = echoHost().handle("tools.invoke", () => {
      throw new WireError("tool_timeout", "too slow", {
        timeout_ms: 90_000,
        requested_timeout_ms: 120_000,
        max_timeout_ms: 90_000,
      });
    });
    await withRuntime(host, async (anna) => {
      await expect(anna.tools.invoke("t.x", { a: 1 })).rejects.toMatchObject({
        code: "tool_timeout",
        details: { requested_timeout_ms: 120_000 },
      });
      expect(host.requests[host.requests.length - 1]?.args).toEqual({
        tool_id: "t.x",
        args: { a: 1 },
      });
    });
  });

  it("resolves bundled:<handle> tool ids through window.__ANNA_TOOL_IDS__", async () => {
    vi.stubGlobal("__ANNA_TOOL_IDS__", { "focus-session": "tool-dev-focus-12345678" });
    const host = echoHost().handle("tools.invoke", (request) => ({
      success: true,
      data: request.args,
    }));
    await withRuntime(host, async (anna) => {
      await expect(
        anna.tools.invoke({ tool_id: "bundled:focus-session", method: "start" }),
      ).resolves.toEqual({
        tool_id: "tool-dev-focus-12345678",
        method: "start",
      });
      await expect(anna.tools.invoke({ tool_id: "bundled:unknown" })).resolves.toEqual({
        tool_id: "bundled:unknown",
      });
    });
  });
});

describe("streams", () => {
  it("llm.stream yields rpc.stream frames in seq order, including frames that beat the answer", async () => {
    const host = echoHost().handle("llm.stream", () => NO_ANSWER);
    await withRuntime(host, async (anna) => {
      const stream = anna.llm.stream({ messages: [{ role: "user", content: "hi" }] });
      const request = await host.waitForRequest("llm.stream");
      const frame = (seq: number, payload: unknown, done = false): Record<string, unknown> =>
        wireEvent("rpc.stream", {
          stream_id: "strm_1",
          window_uuid: WINDOW_UUID,
          seq,
          payload,
          done,
        });
      host.emitEvent(frame(0, { event: "model_token", text: "Hel" }));
      host.respond(request.id, { ok: true, result: { stream_id: "strm_1" } });
      await stream.started;
      host.emitEvent(
        frame(2, { event: "complete", content: { type: "text", text: "Hello" } }, true),
      );
      host.emitEvent(frame(1, { event: "model_token", text: "lo" }));
      host.emitEvent(
        wireEvent("rpc.stream", { stream_id: "strm_other", seq: 0, payload: "x", done: true }),
      );
      const frames: unknown[] = [];
      for await (const item of stream) frames.push(item);
      expect(frames).toEqual([
        { event: "model_token", text: "Hel" },
        { event: "model_token", text: "lo" },
        { event: "complete", content: { type: "text", text: "Hello" } },
      ]);
      expect(stream.streamId).toBe("strm_1");
    });
  });

  it("a stream whose call fails throws that error from the iterator", async () => {
    const host = echoHost().handle("llm.stream", () => {
      throw new WireError("permission_denied", "no llm.stream");
    });
    await withRuntime(host, async (anna) => {
      const stream = anna.llm.stream({ messages: [] });
      await expect(
        (async () => {
          for await (const _ of stream) void _;
        })(),
      ).rejects.toMatchObject({ code: "permission_denied" });
    });
  });

  it("agent.session({...}) creates a session whose methods carry its app_session_uuid", async () => {
    const host = echoHost()
      .handle("agent.session.create", () => ({
        app_session_uuid: "aps_1",
        expires_at: "2026-12-01T00:00:00Z",
        idle_ttl_seconds: 1800,
      }))
      .handle("agent.session.run", () => ({ stream_id: "strm_9", run_id: "run_9" }))
      .handle("agent.session.cancel", () => ({ cancelled: true }));
    await withRuntime(host, async (anna) => {
      const session = await anna.agent.session({ submode: "auto" });
      expect(session.appSessionUuid).toBe("aps_1");
      expect(session.idleTtlSeconds).toBe(1800);
      expect(session.expiresAt).toBe("2026-12-01T00:00:00Z");
      const stream = session.run({ content: "find lunch" });
      await stream.started;
      expect(stream.runId).toBe("run_9");
      host.emitEvent(
        wireEvent("rpc.stream", { stream_id: "strm_9", seq: 0, payload: { event: "started" } }),
      );
      host.emitEvent(
        wireEvent("rpc.stream", {
          stream_id: "strm_9",
          seq: 1,
          payload: { event: "end", run_id: "run_9" },
          done: true,
        }),
      );
      const events: unknown[] = [];
      for await (const frame of stream) events.push((frame as { event: string }).event);
      expect(events).toEqual(["started", "end"]);
      await expect(session.cancel("run_9")).resolves.toEqual({ cancelled: true });
      await session.history({ limit: 5 });
      await session.delete();
      const sent = host.requests.filter((r) => r.ns === "agent").map((r) => [r.method, r.args]);
      expect(sent).toEqual([
        ["session.create", { submode: "auto" }],
        ["session.run", { content: "find lunch", app_session_uuid: "aps_1" }],
        ["session.cancel", { app_session_uuid: "aps_1", run_id: "run_9" }],
        ["session.history", { limit: 5, app_session_uuid: "aps_1" }],
        ["session.delete", { app_session_uuid: "aps_1" }],
      ]);
    });
  });
});

describe("tools.invokeAsyncAwait", () => {
  it("starts a job, reports progress, and resolves with the result when it succeeds", async () => {
    const snapshots = [
      {
        jobId: "tjob_1",
        state: "running",
        progress: [{ seq: 1, type: "step", data: 1 }],
        lastSeq: 1,
      },
      {
        jobId: "tjob_1",
        state: "succeeded",
        result: { success: true, data: { total: 3 } },
        progress: [{ seq: 2, type: "step", data: 2 }],
        lastSeq: 2,
      },
    ];
    const host = echoHost()
      .handle("tools.invokeAsync", () => ({ jobId: "tjob_1", state: "queued", deadlineMs: 60_000 }))
      .handle("tools.getJob", () => snapshots.shift());
    await withRuntime(host, async (anna) => {
      const progress: unknown[] = [];
      const pending = anna.tools.invokeAsyncAwait(
        { tool_id: "t.x", args: {} },
        { onProgress: (e) => progress.push(e.data) },
      );
      await host.waitForRequest("tools.getJob");
      // A tool_job event wakes the wait before the poll interval.
      host.emitEvent(
        wireEvent("tool_job", { job_id: "tjob_1", state: "succeeded", seq: 2, terminal: true }),
      );
      await expect(pending).resolves.toEqual({ total: 3 });
      expect(progress).toEqual([1, 2]);
      expect(host.requestsFor("tools.getJob").map((r) => r.args)).toEqual([
        { jobId: "tjob_1" },
        { jobId: "tjob_1", sinceSeq: 1 },
      ]);
    });
  });

  it("rejects with tool_timeout for an expired job and cancels on abort", async () => {
    const host = echoHost()
      .handle("tools.invokeAsync", () => ({ jobId: "tjob_2", state: "queued", deadlineMs: 60_000 }))
      .handle("tools.getJob", () => ({
        jobId: "tjob_2",
        state: "expired",
        error: { message: "deadline" },
      }));
    await withRuntime(host, async (anna) => {
      await expect(anna.tools.invokeAsyncAwait({ tool_id: "t.x" })).rejects.toMatchObject({
        code: "tool_timeout",
        details: { jobId: "tjob_2" },
      });
      host.handle("tools.getJob", () => ({ jobId: "tjob_2", state: "running" }));
      host.handle("tools.cancelJob", () => ({
        jobId: "tjob_2",
        state: "cancelled",
        cancelled: true,
      }));
      const controller = new AbortController();
      const pending = anna.tools.invokeAsyncAwait(
        { tool_id: "t.x" },
        { signal: controller.signal },
      );
      await host.waitForRequest("tools.getJob");
      controller.abort();
      await expect(pending).rejects.toMatchObject({ code: "cancelled" });
      expect(host.requestsFor("tools.cancelJob")).toHaveLength(1);
    });
  });
});
