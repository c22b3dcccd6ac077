// The user the prompt tests assemble for: apps, executas and skills read from the fixture folder
// with the real parsers (app manifests, executa manifests, SKILL.md through the skill index), and
// platform tools and an executor that record what they are asked.

import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { AppManifestSchema, ExecutaManifestSchema } from "@anna-ai/app-schema";
import { SkillIndex } from "@anna-ai/skills";
import type {
  AgentTool,
  AssembledPrompt,
  ExecutaToolTarget,
  PromptApp,
  PromptExecuta,
  PromptInput,
  ToolContext,
} from "../../src/index.js";

export const FIXTURES = fileURLToPath(new URL("../fixtures/prompt/", import.meta.url));
const WORLD = `${FIXTURES}world/`;

interface WorldFile {
  executas: (Omit<PromptExecuta, "manifest"> & { manifest: string })[];
  apps: (Omit<PromptApp, "manifest"> & { manifest: string })[];
}

export interface ExecutorCall {
  target: Omit<ExecutaToolTarget, "definition">;
  input: unknown;
  ctx: Omit<ToolContext, "signal">;
}

export interface World {
  base: PromptInput;
  /** Every call the fake executor received, in order. */
  calls: ExecutorCall[];
}

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, "utf8")) as unknown;
}

export async function loadWorld(): Promise<World> {
  const file = (await readJson(`${WORLD}world.json`)) as WorldFile;
  const executas = await Promise.all(
    file.executas.map(async (e) => ({
      ...e,
      manifest: ExecutaManifestSchema.parse(await readJson(`${WORLD}executas/${e.manifest}`)),
    })),
  );
  const apps = await Promise.all(
    file.apps.map(async (a) => ({
      ...a,
      manifest: AppManifestSchema.parse(await readJson(`${WORLD}apps/${a.manifest}`)),
    })),
  );
  const skills = await SkillIndex.build({ bundledDir: `${WORLD}skills`, os: null });
  const calls: ExecutorCall[] = [];
  const base: PromptInput = {
    text: "",
    history: [],
    baseSystem: "You are Anna, a helpful assistant.",
    skills,
    executas,
    apps,
    bindExecutaTool:
      ({ toolId, tool }) =>
      async (input, ctx) => {
        const { signal: _signal, ...rest } = ctx;
        calls.push({ target: { toolId, tool }, input, ctx: rest });
        return { output: { ran: `${toolId}/${tool}` } };
      },
    platformTools: [platformTool("web_search", "Search the web", { query: { type: "string" } })],
    appViewTools: [
      platformTool("open_app_view", "Summon (or focus) an app window", {
        app_id: { type: "string" },
        view: { type: "string" },
      }),
      platformTool("update_app_view", "Push state into an existing window", {
        window_uuid: { type: "string" },
      }),
      platformTool("close_app_view", "Close a window", { window_uuid: { type: "string" } }),
    ],
  };
  return { base, calls };
}

export function platformTool(
  name: string,
  description: string,
  properties: Record<string, unknown>,
): AgentTool {
  return {
    name,
    description,
    parameters: { type: "object", properties, required: [] },
    source: { kind: "platform", family: name.endsWith("_app_view") ? "app_views" : name },
    execute: () => Promise.resolve({ output: `${name} ran` }),
  };
}

export const CTX: ToolContext = {
  userId: "u_alice",
  conversationId: "c_1",
  turnId: "t_1",
  signal: new AbortController().signal,
};

/** Fixture paths (skill folders) as `<fixtures>/`, so golden files do not depend on the checkout. */
export function portable(text: string): string {
  return text.split(FIXTURES).join("<fixtures>/");
}

/** The whole prompt as one readable text, for golden files. */
export function renderForGolden(prompt: AssembledPrompt): string {
  const tools = prompt.tools.map((t) =>
    [
      `## ${t.name}`,
      `source: ${JSON.stringify(t.source)}`,
      ...(t.timeoutMs !== undefined ? [`timeout_ms: ${t.timeoutMs}`] : []),
      `description: ${t.description ?? ""}`,
      `parameters: ${JSON.stringify(t.parameters)}`,
    ].join("\n"),
  );
  const messages = prompt.messages.map(
    (m) => `[${m.role}] ${"content" in m ? m.content : JSON.stringify(m)}`,
  );
  const lines = [
    "# activated apps",
    prompt.activatedApps.length === 0 ? "(none)" : prompt.activatedApps.join(", "),
    "",
    "# notices",
    ...(prompt.notices.length === 0 ? ["(none)"] : prompt.notices.map((n) => `- ${n}`)),
    "",
    `# tools (${prompt.tools.length})`,
    ...tools,
    "",
    "# system",
    prompt.system,
    "",
    "# messages",
    ...messages,
    "",
  ];
  return portable(lines.join("\n"));
}

export function golden(name: string): string {
  return `${FIXTURES}${name}.golden.txt`;
}
