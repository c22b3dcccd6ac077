import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MockFixture } from "@anna-ai/executa-host";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  GatewayError,
  MemoryUsageLedger,
  OFFLINE_FALLBACK_TEXT,
  createLlmGateway,
  llmConfigFromEnv,
  openLlmGateway,
} from "../src/index.js";
import type { LlmGateway } from "../src/index.js";
import { ACCOUNT, collect, textOf } from "./helpers.js";

const FIXTURE_FILE = fileURLToPath(new URL("fixtures/offline-chat.jsonl", import.meta.url));
const CALL = { account: ACCOUNT, purpose: "chat" } as const;

async function offlineGateway(withFixture: boolean, sleeps: number[] = []): Promise<LlmGateway> {
  return createLlmGateway({
    config: llmConfigFromEnv({}),
    usage: new MemoryUsageLedger(),
    ...(withFixture ? { offlineFixture: await MockFixture.load(FIXTURE_FILE) } : {}),
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
  });
}

describe("the offline model", () => {
  it("says plainly that no model is configured and how to configure one", async () => {
    const gateway = await offlineGateway(false);
    const events = await collect(
      gateway.streamChat({ messages: [{ role: "user", content: "hello?" }] }, CALL),
    );
    expect(textOf(events)).toBe(OFFLINE_FALLBACK_TEXT);
    expect(OFFLINE_FALLBACK_TEXT).toMatch(/No language model is configured/);
    for (const name of [
      "ANNA_LLM_PROVIDER",
      "ANNA_LLM_MODEL",
      "ANNA_LLM_API_KEY",
      "ANNA_LLM_BASE_URL",
    ]) {
      expect(OFFLINE_FALLBACK_TEXT).toContain(name);
    }
    expect(events.filter((e) => e.type === "text-delta").length).toBeGreaterThan(5);
    expect(events.at(-1)).toMatchObject({
      type: "finish",
      provider: "offline",
      model: "offline",
      finishReason: "stop",
    });
  });

  it("is never presented as a real model", async () => {
    const gateway = await offlineGateway(false);
    for (const purpose of ["chat", "agent", "sampling", "embeddings", "images"] as const) {
      expect(gateway.modelFor(purpose)).toMatchObject({ provider: "offline", model: "offline" });
    }
  });

  it("loads the fixture the configuration names, and reports a broken line with its number", async () => {
    const gateway = await openLlmGateway({
      config: llmConfigFromEnv({ ANNA_LLM_OFFLINE_FIXTURE: FIXTURE_FILE }),
    });
    expect(
      (await gateway.complete({ messages: [{ role: "user", content: "stream me" }] }, CALL)).text,
    ).toBe("one two three");
    const dir = mkdtempSync(join(tmpdir(), "agent-offline-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const broken = join(dir, "broken.jsonl");
    writeFileSync(broken, '{"ns":"llm","method":"complete","result":"fine"}\n{not json\n');
    await expect(
      openLlmGateway({ config: llmConfigFromEnv({ ANNA_LLM_OFFLINE_FIXTURE: broken }) }),
    ).rejects.toThrow(/broken\.jsonl:2:2: not valid JSON/);
  });

  it("answers deterministically", async () => {
    const gateway = await offlineGateway(false);
    const ask = () =>
      gateway.complete({ messages: [{ role: "user", content: "same question" }] }, CALL);
    expect(await ask()).toMatchObject({ text: (await ask()).text, usage: (await ask()).usage });
  });

  it("plays scripted tool calls from the fixture", async () => {
    const gateway = await offlineGateway(true);
    const events = await collect(
      gateway.streamChat({ messages: [{ role: "user", content: "what is the weather?" }] }, CALL),
    );
    expect(textOf(events)).toBe("Let me check.");
    expect(events.filter((e) => e.type === "tool-call")).toEqual([
      { type: "tool-call", id: "call_w", name: "get_weather", input: { city: "Paris" } },
      { type: "tool-call", id: "offline_call_2_1", name: "get_time", input: { zone: "CET" } },
    ]);
    expect(events.at(-1)).toMatchObject({ finishReason: "tool-calls" });
  });

  it("streams an events line one delta per event, and matches on the system prompt", async () => {
    const gateway = await offlineGateway(true);
    const events = await collect(
      gateway.streamChat({ messages: [{ role: "user", content: "stream me" }] }, CALL),
    );
    expect(
      events.filter((e) => e.type === "text-delta").map((e) => e.type === "text-delta" && e.text),
    ).toEqual(["one ", "two ", "three"]);
    const french = await gateway.complete(
      { system: "Answer in French.", messages: [{ role: "user", content: "hi" }] },
      CALL,
    );
    expect(french.text).toBe("Bonjour !");
  });

  it("fails a scripted 429 like a provider, after the bounded retries", async () => {
    const sleeps: number[] = [];
    const gateway = await offlineGateway(true, sleeps);
    const error = await gateway
      .complete({ messages: [{ role: "user", content: "are you busy?" }] }, CALL)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: "rate_limited", status: 429, attempts: 3 });
    expect((error as Error).message).toContain("offline-chat.jsonl:4");
    expect(sleeps).toEqual([5, 5]);
  });

  it("answers schema-shaped JSON for a JSON Schema response format, and cuts at maxTokens", async () => {
    const gateway = await offlineGateway(false);
    const schema = {
      type: "object",
      properties: { title: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
      required: ["title", "tags"],
    };
    const json = await gateway.complete(
      { messages: [{ role: "user", content: "x" }], responseFormat: { type: "json", schema } },
      CALL,
    );
    expect(JSON.parse(json.text)).toMatchObject({
      title: expect.any(String),
      tags: expect.any(Array),
    });
    const cut = await gateway.complete(
      { messages: [{ role: "user", content: "x" }], maxTokens: 3 },
      CALL,
    );
    expect(cut).toMatchObject({ finishReason: "length" });
    expect(cut.text).toHaveLength(12);
  });

  it("makes deterministic unit vectors of the alias's size, and solid PNG images", async () => {
    const gateway = await offlineGateway(false);
    const a = await gateway.embed(
      { values: ["alpha", "beta", "alpha"] },
      { account: ACCOUNT, purpose: "embeddings" },
    );
    expect(a).toMatchObject({ provider: "offline", model: "offline", dimensions: 1536 });
    expect(a.vectors[0]).toEqual(a.vectors[2]);
    expect(a.vectors[0]).not.toEqual(a.vectors[1]);
    const norm = Math.hypot(...(a.vectors[0] ?? []));
    expect(norm).toBeCloseTo(1, 6);
    const images = await gateway.generateImage(
      { prompt: "a cat", n: 2 },
      { account: ACCOUNT, purpose: "images" },
    );
    expect(images.images).toHaveLength(2);
    const png = Buffer.from(images.images[0]?.base64 ?? "", "base64");
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  });
});
