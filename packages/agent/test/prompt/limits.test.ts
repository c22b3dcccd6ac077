// What assembly leaves out when a turn would be too big, and that it says so.

import { beforeEach, describe, expect, it } from "vitest";
import { LOAD_SKILL_TOOL, assemblePrompt, promptLimits } from "../../src/index.js";
import type { ChatMessage, PromptExecuta, PromptInput } from "../../src/index.js";
import { type World, loadWorld } from "./world.js";

let world: World;
beforeEach(async () => {
  world = await loadWorld();
});

function manyExecutas(count: number): PromptExecuta[] {
  return Array.from({ length: count }, (_, i) => {
    const n = String(i).padStart(3, "0");
    return {
      toolId: `tool-bulk-e${n}-0001`,
      slug: `e${n}`,
      name: `Bulk ${n}`,
      enabled: true,
      source: "user" as const,
      manifest: { tools: [{ name: "run", description: `Run ${n}`, parameters: [] }] },
    };
  });
}

function assemble(extra: Partial<PromptInput>): ReturnType<typeof assemblePrompt> {
  return assemblePrompt({ ...world.base, text: "hi", ...extra });
}

describe("prompt limits", () => {
  it("keeps the first tools by priority and names what it left out", () => {
    const prompt = assemble({
      text: "@e149 please",
      executas: manyExecutas(150),
      limits: { maxTools: 10 },
    });
    expect(prompt.tools.map((t) => t.name)).toEqual([
      "web_search",
      LOAD_SKILL_TOOL,
      "e149__run",
      "e000__run",
      "e001__run",
      "e002__run",
      "e003__run",
      "e004__run",
      "e005__run",
      "e006__run",
    ]);
    expect(prompt.notices).toEqual([
      "This turn offers the model at most 10 tools; 142 were left out: e007__run, e008__run, e009__run, e010__run, e011__run, e012__run, e013__run, e014__run, e015__run, e016__run, …. Mention an executa with @ (or an app with #) to bring its tools first.",
    ]);
    // The mentioned executa's documentation only names tools the model actually has.
    expect(prompt.system).toContain('<tool name="e149__run">');
  });

  it("caps the default tool count at 128", () => {
    const prompt = assemble({ executas: manyExecutas(200) });
    expect(prompt.tools).toHaveLength(128);
  });

  it("applies at most maxMentionedApps apps and says which were not", () => {
    const prompt = assemble({
      text: "#weekly-review #research-suite #sneaky",
      limits: { maxMentionedApps: 2 },
    });
    expect(prompt.activatedApps).toEqual(["101", "102"]);
    expect(prompt.notices).toContain(
      "Only the first 2 mentioned apps were applied; #sneaky was not. Mention fewer apps per message.",
    );
  });

  it("shortens the skills index and keeps the cut skills loadable", async () => {
    const prompt = assemble({ limits: { maxSkillsIndexChars: 200 } });
    expect(prompt.system).toContain("<name>chart-generator</name>");
    expect(prompt.system).not.toContain("<name>weekly-notes</name>");
    expect(prompt.notices).toEqual([
      "2 skills were left out of the model's skill list to keep the prompt small; they still load when named.",
    ]);
    const load = prompt.tools.find((t) => t.name === LOAD_SKILL_TOOL);
    const out = await load?.execute(
      { name: "weekly-notes" },
      {
        userId: "u",
        conversationId: "c",
        turnId: "t",
        signal: new AbortController().signal,
      },
    );
    expect(String(out?.output)).toContain("Write three sections");
  });

  it("drops the skills section before an app's instructions when the system prompt is too long", () => {
    const full = assemble({ text: "#weekly-review" });
    const limit = full.system.length - 10;
    const prompt = assemble({ text: "#weekly-review", limits: { maxSystemChars: limit } });
    expect(prompt.system.length).toBeLessThanOrEqual(limit);
    expect(prompt.system).toContain("<system_prompt_addendum>");
    expect(prompt.system).not.toContain("<available_skills>");
    expect(prompt.notices).toContain(
      `The system prompt would pass ${limit} characters, so the skills list was left out of this turn.`,
    );
  });

  it("drops the oldest history first and never starts on a tool result", () => {
    const history: ChatMessage[] = [
      { role: "user", content: "x".repeat(100) },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "call_1", name: "weather__lookup", input: { city: "Oslo" } }],
      },
      { role: "tool", toolCallId: "call_1", toolName: "weather__lookup", output: { temp: 3 } },
      { role: "assistant", content: "It is 3 degrees." },
      { role: "user", content: "thanks" },
    ];
    const keptAll = assemble({ history });
    expect(keptAll.messages).toHaveLength(6);
    const trimmed = assemble({ history, limits: { maxHistoryChars: 40 } });
    expect(trimmed.messages).toEqual([
      { role: "assistant", content: "It is 3 degrees." },
      { role: "user", content: "thanks" },
      { role: "user", content: "hi" },
    ]);
    expect(trimmed.notices).toEqual([
      "The 3 oldest messages of this conversation were left out of the model's view to stay within its size limit.",
    ]);
  });

  it("rejects a limit that is not a non-negative integer, naming the default", () => {
    expect(() => promptLimits({ maxTools: -1 })).toThrow(
      "prompt limit maxTools must be a non-negative integer, not -1 (default 128)",
    );
  });
});
