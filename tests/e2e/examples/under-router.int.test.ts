// The v2 examples under ExecutaHost with the ReverseRpcRouter in front of recording host
// services: every reverse family makes the round trip plugin → host → service → plugin, with
// the router's correlation (T12), gates (H13) and file transport resolution (H3) on the way.

import { RpcError } from "@anna-ai/jsonrpc";
import {
  createAllowAllGrantPolicy,
  createMemoryStorageService,
  createRecordingServices,
  detectLaunchSpec,
  ExecutaHost,
  ReverseRpcRouter,
} from "@anna-ai/executa-host";
import type {
  HostServices,
  RecordedCall,
  RecordingServices,
  RouterProgressEvent,
} from "@anna-ai/executa-host";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { needs } from "../../support/toolchains.js";
import { exampleDir, goBuild, goEnv, GO_BUILD_TIMEOUT_MS, pluginEnv } from "./example-plugins.js";
import type { GoBuild } from "./example-plugins.js";
import { startPutServer } from "./put-server.js";

const USER = "user-1";
const go = needs("go");

interface Rig {
  host: ExecutaHost;
  services: RecordingServices;
  progress: RouterProgressEvent[];
  toolId: string;
}

/** A host whose router serves the recording services; `respond` overrides canned answers. */
async function rig(
  example: string,
  respond?: (call: RecordedCall) => unknown,
  command?: readonly string[],
  overrides: Partial<HostServices> = {},
): Promise<Rig> {
  const recording = createRecordingServices(respond ? { respond } : {});
  const services = { ...recording, ...overrides };
  const progress: RouterProgressEvent[] = [];
  const router = new ReverseRpcRouter({
    services,
    grants: createAllowAllGrantPolicy(),
    onProgress: (event) => progress.push(event),
  });
  const env = example.startsWith("go-") ? goEnv() : pluginEnv();
  const host = new ExecutaHost({ router, env });
  onTestFinished(() => host.close());
  const detected = await detectLaunchSpec(exampleDir(example), { env });
  const spec = command ? { ...detected, command } : detected;
  return {
    host,
    services: recording,
    progress,
    toolId: host.register(spec, { userId: USER }).toolId,
  };
}

function invoke(r: Rig, tool: string, args: Record<string, unknown> = {}) {
  return r.host.invoke(USER, r.toolId, tool, args);
}

describe("py-studio under the reverse-RPC router", () => {
  it("routes sampling with the invoke's context and returns the completion", async () => {
    const r = await rig("py-studio");
    const outcome = await invoke(r, "summarize", { text: "A long story." });
    expect(outcome).toMatchObject({ ok: true, data: { summary: "ok", model: "recording-model" } });
    const [call] = r.services.callsTo("sampling", "createMessage");
    expect(call?.params).toMatchObject({ maxTokens: 200, includeContext: "none" });
    expect(call?.ctx).toMatchObject({
      toolId: "tool-examples-py-studio-00000001",
      tool: "summarize",
    });
    expect(call?.ctx.invokeId).toMatch(/\S/);
  });

  it("asks for json_schema output and parses it", async () => {
    const r = await rig("py-studio", (call) =>
      call.method === "createMessage"
        ? {
            role: "assistant",
            content: { type: "text", text: '{"title":"T","keywords":[]}' },
            model: "m",
          }
        : undefined,
    );
    const outcome = await invoke(r, "extract", { text: "x" });
    expect(outcome).toMatchObject({
      ok: true,
      data: { fields: { title: "T", keywords: [] }, structured: true },
    });
    expect(r.services.callsTo("sampling")[0]?.params).toMatchObject({
      responseFormat: { type: "json_schema", json_schema: { name: "extraction" } },
    });
  });

  it("retries storage/set after PRECONDITION_FAILED", async () => {
    let sets = 0;
    const r = await rig("py-studio", (call) => {
      if (call.service !== "storage") return undefined;
      if (call.method === "get") return { value: [], exists: true, etag: `e${sets}` };
      if (call.method === "set" && ++sets === 1) {
        throw new RpcError(-32023, "precondition failed", { errorCode: "PRECONDITION_FAILED" });
      }
      return undefined;
    });
    const outcome = await invoke(r, "note_add", { notebook: "n", text: "t" });
    expect(outcome).toMatchObject({ ok: true, data: { attempts: 2, count: 1 } });
    expect(r.services.callsTo("storage").map((c) => c.method)).toEqual([
      "get",
      "set",
      "get",
      "set",
    ]);
    expect(r.services.callsTo("storage", "set")[1]?.params).toMatchObject({
      if_match: "e1",
      scope: "tool",
    });
  });

  it("keeps every note when three invokes write one notebook at once (if_match, retry on -32023)", async () => {
    const r = await rig("py-studio", undefined, undefined, {
      storage: createMemoryStorageService(),
    });
    expect(await invoke(r, "note_add", { notebook: "shared", text: "first" })).toMatchObject({
      ok: true,
    });
    const racing = await Promise.all(
      ["a", "b", "c"].map((text) => invoke(r, "note_add", { notebook: "shared", text })),
    );
    for (const outcome of racing) expect(outcome).toMatchObject({ ok: true });
    expect(await invoke(r, "note_add", { notebook: "shared", text: "last" })).toMatchObject({
      ok: true,
      data: { count: 5 },
    });
    expect(await invoke(r, "note_list")).toMatchObject({
      ok: true,
      data: { notebooks: ["shared"] },
    });
    expect(await invoke(r, "note_delete", { notebook: "shared" })).toMatchObject({
      ok: true,
      data: { deleted: true },
    });
    expect(await invoke(r, "note_list")).toMatchObject({ ok: true, data: { notebooks: [] } });
  });

  it("lists and deletes through storage/list and storage/delete", async () => {
    const r = await rig("py-studio");
    expect(await invoke(r, "note_list")).toMatchObject({ ok: true, data: { notebooks: [] } });
    expect(await invoke(r, "note_delete", { notebook: "n" })).toMatchObject({
      ok: true,
      data: { deleted: true },
    });
  });

  it("saves a file: upload_begin, PUT to the presigned URL, upload_complete, download_url", async () => {
    const storage = await startPutServer();
    onTestFinished(() => storage.close());
    const r = await rig("py-studio", (call) =>
      call.method === "uploadBegin"
        ? {
            upload_id: "u",
            put_url: storage.urlFor("drive/a.txt"),
            headers: {},
            expires_at: "2099-01-01T00:00:00Z",
          }
        : undefined,
    );
    const outcome = await invoke(r, "save_file", { path: "a.txt", text: "file body" });
    expect(storage.uploads.get("/drive/a.txt")?.body.toString()).toBe("file body");
    expect(outcome).toMatchObject({
      ok: true,
      data: { path: "a.txt", download_url: "https://files.invalid/get/a.txt" },
    });
    expect(r.services.callsTo("files").map((c) => c.method)).toEqual([
      "uploadBegin",
      "uploadComplete",
      "downloadUrl",
    ]);
    expect(r.services.callsTo("files", "uploadComplete")[0]?.params).toMatchObject({
      etag: storage.uploads.get("/drive/a.txt")?.etag,
    });
  });

  it("runs an agent session and agent/complete", async () => {
    const r = await rig("py-studio");
    expect(await invoke(r, "plan", { goal: "g" })).toMatchObject({
      ok: true,
      data: { plan: "ok", frames: 2 },
    });
    expect(r.services.callsTo("agent").map((c) => c.method)).toEqual([
      "sessionCreate",
      "sessionRun",
      "sessionDelete",
    ]);
    expect(await invoke(r, "ask_complete", { prompt: "p" })).toMatchObject({
      ok: true,
      data: { answer: "ok" },
    });
  });

  it("generates images, embeds texts and uploads inline and presigned", async () => {
    const storage = await startPutServer();
    onTestFinished(() => storage.close());
    const r = await rig("py-studio", (call) =>
      call.method === "negotiate"
        ? {
            r2_key: "k-put",
            put_url: storage.urlFor("k-put"),
            headers: { "Content-Type": "text/plain" },
            expires_at: "2099-01-01T00:00:00Z",
          }
        : undefined,
    );
    expect(await invoke(r, "poster", { prompt: "Mars", n: 2 })).toMatchObject({
      ok: true,
      data: { count: 2 },
    });
    expect(await invoke(r, "embed", { texts: ["a", "b"] })).toMatchObject({
      ok: true,
      data: { count: 2, dimensions: 3 },
    });
    expect(await invoke(r, "share_text", { filename: "a.txt", text: "abc" })).toMatchObject({
      ok: true,
      data: { size_bytes: 3 },
    });
    expect(
      await invoke(r, "share_text", { filename: "b.txt", text: "presigned", mode: "presigned" }),
    ).toMatchObject({
      ok: true,
      data: { r2_key: "k-put" },
    });
    expect(storage.uploads.get("/k-put")?.body.toString()).toBe("presigned");
    expect(r.services.callsTo("upload").map((c) => c.method)).toEqual([
      "inline",
      "negotiate",
      "confirm",
    ]);
  });

  it("receives a 600 KiB inline upload whose reverse request came through file transport", async () => {
    const r = await rig("py-studio");
    const outcome = await invoke(r, "big_upload", { size_kib: 600 });
    expect(outcome).toMatchObject({ ok: true, data: { size_bytes: 600 * 1024 } });
    const [call] = r.services.callsTo("upload", "inline");
    expect(Buffer.from(String(call?.params.content_b64), "base64").length).toBe(600 * 1024);
  });

  it("delivers executa/progress to the router's listener with the invoke's id", async () => {
    const r = await rig("py-studio");
    expect(await invoke(r, "long_task", { steps: 3 })).toMatchObject({ ok: true });
    expect(r.progress.map((e) => [e.tool, e.type, e.data])).toEqual(
      [1, 2, 3].map((step) => ["long_task", "tool_update", { step, total: 3 }]),
    );
    expect(new Set(r.progress.map((e) => e.invokeId)).size).toBe(1);
  });

  const REVERSE_CALL_WAIT_MS = 20_000;

  it("correlates concurrent invokes' reverse calls by context.invoke_id (T12)", async () => {
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const seen: string[] = [];
    const r = await rig("py-studio", async (call) => {
      seen.push(call.ctx.invokeId);
      if (seen.length === 1) await held; // the first summarize waits until the second is in
      return undefined;
    });
    // The first call waits for Python to start (under the supervisor, on a loaded runner): the
    // poll's ceiling is generous, not a speed target.
    const first = invoke(r, "summarize", { text: "one" });
    await expect.poll(() => seen.length, { timeout: REVERSE_CALL_WAIT_MS }).toBe(1);
    const second = invoke(r, "summarize", { text: "two" });
    await expect.poll(() => seen.length, { timeout: REVERSE_CALL_WAIT_MS }).toBe(2);
    expect(await second).toMatchObject({ ok: true });
    release?.();
    expect(await first).toMatchObject({ ok: true });
    expect(new Set(seen).size).toBe(2);
  });
});

describe.skipIf(go.skip)(`go-hello under the reverse-RPC router${go.reason}`, () => {
  let build: GoBuild | undefined;
  beforeAll(async () => {
    build = await goBuild("go-hello", { "go-hello": ["."] });
  }, GO_BUILD_TIMEOUT_MS);
  afterAll(() => build?.cleanup());

  function binary(): string[] {
    const path = build?.binaries["go-hello"];
    if (!path) throw new Error("go-hello was not built");
    return [path];
  }

  it("answers ask through sampling with string reverse ids", async () => {
    const r = await rig("go-hello", undefined, binary());
    expect(await invoke(r, "ask", { question: "Why?" })).toMatchObject({
      ok: true,
      data: { answer: "ok" },
    });
    expect(r.services.callsTo("sampling")[0]?.params).toMatchObject({
      messages: [{ role: "user", content: { type: "text", text: "Why?" } }],
    });
  });

  it("echoes integer reverse ids with their type, so remember completes", async () => {
    const r = await rig(
      "go-hello",
      (call) =>
        call.method === "get" ? { value: "teal", exists: true, etag: "etag-1" } : undefined,
      binary(),
    );
    const outcome = await invoke(r, "remember", { key: "colour", value: "teal" });
    expect(outcome).toMatchObject({
      ok: true,
      data: { key: "memory/colour", value: "teal", exists: true },
    });
    expect(r.services.callsTo("storage").map((c) => c.method)).toEqual(["set", "get"]);
  });
});
