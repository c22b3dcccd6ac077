// End to end: real example plugins under ExecutaHost + ReverseRpcRouter with the offline agent,
// image and upload services. The plugins' own code creates and runs agent sessions, asks for
// completions, generates images and uploads files (inline, through __file_transport, and
// negotiate → HTTP PUT → confirm); the test then fetches what the URLs serve.
import { createHash } from "node:crypto";
import { needs } from "../../../../../tests/support/toolchains.js";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { ExecutaHost } from "../../../src/host/executa-host.js";
import { ReverseRpcRouter } from "../../../src/router/reverse-rpc-router.js";
import { createAllowAllGrantPolicy } from "../../../src/services/grants.js";
import type { HostServices } from "../../../src/services/host-services.js";
import { createOfflineAgentService } from "../../../src/services/offline/agent-offline.js";
import { LoopbackBlobServer } from "../../../src/services/offline/blob-server.js";
import { createOfflineImageService } from "../../../src/services/offline/image-offline.js";
import { pngSize } from "../../../src/services/offline/image-png.js";
import { createOfflineUploadService } from "../../../src/services/offline/upload-offline.js";
import { exampleSpecs } from "./helpers.js";

const python = needs("python3");
const USER = "user-1";

const env: NodeJS.ProcessEnv = {
  ...process.env,
  PYTHONDONTWRITEBYTECODE: "1",
  // The plugins PUT to 127.0.0.1: never through a proxy from the environment.
  NO_PROXY: "127.0.0.1,localhost",
  no_proxy: "127.0.0.1,localhost",
};

type Outcome = { ok: boolean; data?: Record<string, unknown>; error?: { code: number } };

describe("offline agent, image and upload services under ExecutaHost", () => {
  const blobServer = new LoopbackBlobServer();
  beforeAll(() => blobServer.start());
  afterAll(() => blobServer.close());
  const spec = exampleSpecs(["py-studio", "ts-kitchen-sink"], env);

  function newHost(services?: Partial<HostServices>) {
    const router = new ReverseRpcRouter({
      services: services ?? {
        agent: createOfflineAgentService({ mode: "mock" }),
        image: createOfflineImageService({ mode: "mock", blobServer }),
        upload: createOfflineUploadService({ mode: "synthetic", blobServer }),
      },
      grants: createAllowAllGrantPolicy(),
    });
    const host = new ExecutaHost({ env, router });
    onTestFinished(() => host.close());
    return host;
  }

  async function fetchBytes(url: unknown): Promise<Buffer> {
    const response = await fetch(String(url));
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  it.skipIf(python.skip)(
    `py-studio plans with an agent session, completes, draws and uploads${python.reason}`,
    async () => {
      const host = newHost();
      const plugin = host.register(spec("py-studio"), { userId: USER });
      const call = (tool: string, args: Record<string, unknown>) =>
        host.invoke(USER, plugin.toolId, tool, args) as Promise<Outcome>;

      const plan = await call("plan", { goal: "tidy the garage" });
      expect(plan).toMatchObject({
        ok: true,
        data: { plan: "Mock agent reply: tidy the garage", tool_calls: [] },
      });
      expect(plan.data?.["thread_id"]).toMatch(/^thr_/);
      expect(plan.data?.["run_id"]).toMatch(/^run_/);
      expect(plan.data?.["frames"]).toBeGreaterThan(3);

      expect(await call("ask_complete", { prompt: "hello" })).toMatchObject({
        ok: true,
        data: { answer: "Mock completion: hello", model: "mock-agent" },
      });

      const poster = await call("poster", { prompt: "a lighthouse", n: 2, size: "512x512" });
      expect(poster).toMatchObject({ ok: true, data: { model: "mock-image", count: 2 } });
      for (const url of poster.data?.["urls"] as string[]) {
        expect(pngSize(await fetchBytes(url))).toEqual({ width: 256, height: 256 });
      }

      const inline = await call("share_text", { filename: "hi.txt", text: "inline text" });
      expect(inline).toMatchObject({ ok: true, data: { size_bytes: 11 } });
      expect((await fetchBytes(inline.data?.["download_url"])).toString()).toBe("inline text");

      const presigned = await call("share_text", {
        filename: "hi.txt",
        text: "presigned text",
        mode: "presigned",
      });
      expect(presigned).toMatchObject({ ok: true, data: { size_bytes: 14 } });
      expect(presigned.data?.["r2_key"]).toMatch(/^exec-uploads\/dev\/user-1\//);
      expect((await fetchBytes(presigned.data?.["download_url"])).toString()).toBe(
        "presigned text",
      );

      // 600 KiB inline: the reverse request itself travels through __file_transport.
      const big = await call("big_upload", { size_kib: 600 });
      expect(big).toMatchObject({ ok: true, data: { size_bytes: 600 * 1024 } });
      const bytes = await fetchBytes(big.data?.["download_url"]);
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(big.data?.["sha256"]);
    },
  );

  it("ts-kitchen-sink runs its agent, image and upload tools through the SDK clients", async () => {
    const host = newHost();
    const plugin = host.register(spec("ts-kitchen-sink"), { userId: USER });
    const call = (tool: string, args: Record<string, unknown>) =>
      host.invoke(USER, plugin.toolId, tool, args) as Promise<Outcome>;

    const task = await call("agent_task", { task: "name three colours" });
    expect(task).toMatchObject({ ok: true, data: { session: expect.stringMatching(/^aps_/) } });
    expect(JSON.stringify(task.data)).toContain("name three colours");

    const draw = await call("draw", { prompt: "a cat", size: "128x64" });
    const images = draw.data?.["images"] as { url: string; width: number; height: number }[];
    expect(images).toHaveLength(1);
    expect(pngSize(await fetchBytes(images[0]?.url))).toEqual({ width: 128, height: 64 });

    const artifact = await call("publish_artifact", { filename: "a.txt", content: "artifact" });
    expect(artifact.ok).toBe(true);
    expect((await fetchBytes(artifact.data?.["inline"])).toString()).toBe("artifact");
    expect((await fetchBytes(artifact.data?.["presigned"])).toString()).toBe("artifact");
  });

  it.skipIf(python.skip)(
    `off modes reach the plugin as -32041, -32101 and -32201${python.reason}`,
    async () => {
      const host = newHost({
        agent: createOfflineAgentService({ mode: "off" }),
        image: createOfflineImageService({ mode: "off" }),
        upload: createOfflineUploadService({ mode: "off" }),
      });
      const plugin = host.register(spec("py-studio"), { userId: USER });
      const call = (tool: string, args: Record<string, unknown>) =>
        host.invoke(USER, plugin.toolId, tool, args) as Promise<Outcome>;
      expect(await call("plan", { goal: "x" })).toMatchObject({
        ok: false,
        error: { code: -32041 },
      });
      expect(await call("poster", { prompt: "x" })).toMatchObject({
        ok: false,
        error: { code: -32101 },
      });
      expect(await call("share_text", { filename: "a", text: "x" })).toMatchObject({
        ok: false,
        error: { code: -32201 },
      });
    },
  );
});
