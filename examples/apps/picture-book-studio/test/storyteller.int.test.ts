// The storyteller executa as `anna-app dev` runs it: detected from its folder, spawned as a real
// child process under ExecutaHost, its reverse sampling answered by the offline sampling service
// from the app's own mock-answer file (fixtures/llm.jsonl).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SAMPLING_ERRORS } from "@anna-ai/app-schema/errors";
import {
  createAllowAllGrantPolicy,
  createOfflineSamplingService,
  detectLaunchSpec,
  ExecutaHost,
  MockFixture,
  ReverseRpcRouter,
  type LaunchSpec,
  type OfflineSamplingOptions,
  type SamplingService,
} from "@anna-ai/executa-host";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  cleanTitle,
  MAX_TITLE_CHARS,
  sentencesOf,
} from "../executas/storyteller/src/storyteller-plugin.js";

const APP = path.resolve(fileURLToPath(import.meta.url), "../..");
const USER = "user-7";
const STORY =
  "Pip was a little fox who hummed only when nobody was listening. One evening the owls sang. Pip sang too!";

let spec: LaunchSpec;
let fixture: MockFixture;

beforeAll(async () => {
  spec = await detectLaunchSpec(path.join(APP, "executas/storyteller"), { env: process.env });
  fixture = await MockFixture.load(path.join(APP, "fixtures/llm.jsonl"));
});

/** A host around the plugin; `sampled` collects every sampling request that reached the host. */
function startPlugin(sampling: OfflineSamplingOptions = { mode: "mock", fixture }) {
  const offline = createOfflineSamplingService(sampling);
  const sampled: Record<string, unknown>[] = [];
  const service: SamplingService = {
    createMessage: (params, ctx) => {
      sampled.push(params as unknown as Record<string, unknown>);
      return offline.createMessage(params, ctx);
    },
  };
  const router = new ReverseRpcRouter({
    services: { sampling: service },
    grants: createAllowAllGrantPolicy(),
  });
  const host = new ExecutaHost({ router });
  onTestFinished(() => host.close());
  const plugin = host.register(spec, { userId: USER });
  return {
    sampled,
    toolId: plugin.toolId,
    describe: () => host.describe(USER, plugin.toolId),
    invoke: (tool: string, args: Record<string, unknown>) =>
      host.invoke(USER, plugin.toolId, tool, args),
  };
}

describe("storyteller under ExecutaHost", () => {
  it("is detected from executa.json and describes its two tools and llm.sample", async () => {
    expect(spec).toMatchObject({ toolId: "tool-examples-storyteller-00000003", type: "node" });
    const plugin = startPlugin();
    const manifest = await plugin.describe();
    expect(manifest.tools.map((t) => t.name)).toEqual(["title_story", "split_pages"]);
    expect(manifest.host_capabilities).toEqual(["llm.sample"]);
  });

  it("titles a story through reverse sampling, answered from the app's fixture", async () => {
    const plugin = startPlugin();
    const outcome = await plugin.invoke("title_story", { story: STORY });
    // The fixture answers `"Pip and the Night Owls."`: quotes and full stop are cleaned away.
    expect(outcome).toMatchObject({
      ok: true,
      data: { title: "Pip and the Night Owls", model: "mock-storybook" },
    });
    expect(plugin.sampled).toHaveLength(1);
    expect(plugin.sampled[0]).toMatchObject({
      maxTokens: 32,
      systemPrompt: expect.stringContaining("title"),
      messages: [
        {
          role: "user",
          content: { type: "text", text: expect.stringContaining("in a gentle tone") },
        },
      ],
    });
  });

  it("gets a synthetic title when no fixture line answers", async () => {
    const plugin = startPlugin({ mode: "mock" });
    const outcome = await plugin.invoke("title_story", { story: STORY, style: "playful" });
    expect(outcome.ok).toBe(true);
    const { title } = (outcome as { data: { title: string } }).data;
    expect(title.length).toBeGreaterThan(0);
    expect(title.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
  });

  it("fails the invoke with the host's error when sampling is off", async () => {
    const plugin = startPlugin({ mode: "off" });
    const outcome = await plugin.invoke("title_story", { story: STORY });
    // The SDK turns the reverse error into a failed invoke that keeps the host's code.
    expect(outcome).toMatchObject({
      ok: false,
      kind: "tool_failed",
      error: "sampling_disabled",
      raw: {
        data: {
          code: SAMPLING_ERRORS.NOT_NEGOTIATED.code,
          errorCode: SAMPLING_ERRORS.NOT_NEGOTIATED.errorCode,
        },
      },
    });
  });

  it("splits pages without calling the host, and says what is wrong with bad input", async () => {
    const plugin = startPlugin();
    expect(await plugin.invoke("split_pages", { story: STORY })).toMatchObject({
      ok: true,
      data: {
        pages: [
          "Pip was a little fox who hummed only when nobody was listening. One evening the owls sang.",
          "Pip sang too!",
        ],
        page_count: 2,
      },
    });
    expect(plugin.sampled).toEqual([]);
    expect(await plugin.invoke("split_pages", { story: "   " })).toMatchObject({
      ok: false,
      error: expect.stringContaining("story is empty"),
    });
    expect(
      await plugin.invoke("split_pages", { story: STORY, sentences_per_page: 9 }),
    ).toMatchObject({ ok: false, error: expect.stringContaining("between 1 and 6, got 9") });
  });
});

describe("storyteller helpers", () => {
  it("cleans a model's title to fit a cover", () => {
    expect(cleanTitle('  "Pip and the Night Owls."\nA second line')).toBe("Pip and the Night Owls");
    expect(cleanTitle("Title: **Moon Song**")).toBe("Moon Song");
    const long = cleanTitle("word ".repeat(30));
    expect(long.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
    expect(long.endsWith("word")).toBe(true);
  });

  it("keeps closing punctuation and a last sentence without any", () => {
    expect(sentencesOf('She said "hi!" Then left. And')).toEqual([
      'She said "hi!"',
      "Then left.",
      "And",
    ]);
  });
});
