import { type LlmToolSchema, type ToolDefinition, toLlmToolSchema } from "@anna-ai/app-schema";
import type { Skill } from "./skill.js";
import type { ExecutionMode, SkillMetadata, SkillRecipe } from "./types.js";

/** The hint shown above the body, per mode: the spec's table (L4033–4039), verbatim. */
export const EXECUTION_MODE_HINTS: Readonly<Record<ExecutionMode, string>> = {
  prompt: "Follow the instructions in the body",
  bash: "Run the example commands via `exec` (bash/shell)",
  python: "Run the Python via `exec`, preferring `uv run --with <pkg> python script.py`",
  api: "This skill describes an HTTP call — use `exec` to run `curl` or similar",
  hybrid: "Mix bash and Python as the body suggests",
};

/** Provider tool names: letters, digits, `_` and `-`, at most 64 characters. */
const TOOL_NAME_MAX_CHARS = 64;
const TOOL_NAME_INVALID = /[^A-Za-z0-9_-]+/g;

/** A skill as the agent registers it (S12). `content` is the tool's whole result. */
export interface SkillTool {
  /** `skill_key ?? name`, reduced to the characters tool names allow. */
  name: string;
  description: string;
  /** JSON Schema of the declared `parameters` (S22); an empty object schema when none. */
  parameters: LlmToolSchema;
  /** Hint, then dependencies, then the body verbatim (S12). Text only: nothing is run (S13). */
  content: string;
}

export function skillToolName(id: string): string {
  const cleaned = id.replace(TOOL_NAME_INVALID, "_").slice(0, TOOL_NAME_MAX_CHARS);
  return cleaned === "" ? "skill" : cleaned;
}

/**
 * Renders a skill as an agent tool. Pure: it reads nothing from disk and runs nothing; the body
 * comes from the `Skill` (load it from the index with `SkillIndex.load`).
 */
export function renderSkillTool(skill: Skill): SkillTool {
  const tool: ToolDefinition = { name: skill.id, description: skill.description };
  if (skill.metadata.parameters !== undefined) {
    tool.parameters = skill.metadata.parameters as ToolDefinition["parameters"];
  }
  const { schema } = toLlmToolSchema(tool);
  return {
    name: skillToolName(skill.id),
    description: skill.description,
    parameters: schema,
    content: renderSkillContent(skill),
  };
}

/** The tool result text: hint + dependencies + body, in that order (X7 records the layout). */
export function renderSkillContent(skill: Skill): string {
  const parts = [renderHint(skill.metadata)];
  const deps = renderDependencies(skill.metadata);
  if (deps !== "") parts.push(deps);
  if (skill.dir !== undefined) {
    parts.push(`Skill folder: ${skill.dir} (paths in the skill are relative to it)`);
  }
  return `${parts.join("\n\n")}\n\n---\n\n${skill.body}`;
}

export function renderHint(metadata: SkillMetadata): string {
  const mode = metadata.execution_mode;
  let hint = `Execution mode: ${mode}. ${EXECUTION_MODE_HINTS[mode]}.`;
  const packages = metadata.requires.python_packages;
  if (mode === "python" && packages.length > 0) {
    // L4078: the follow-up the spec expects for chart-generator.
    const withs = packages.map((p) => `--with ${p}`).join(" ");
    hint += `\nFor this skill: \`uv run ${withs} python script.py\``;
  }
  return hint;
}

/** Declared dependencies, as the LLM should read them; empty when nothing is declared. */
export function renderDependencies(metadata: SkillMetadata): string {
  const r = metadata.requires;
  const lines: string[] = [];
  if (r.bins.length > 0) lines.push(`- Executables on PATH (all of): ${r.bins.join(", ")}`);
  if (r.any_bins.length > 0)
    lines.push(`- Executables on PATH (any one of): ${r.any_bins.join(", ")}`);
  if (r.env.length > 0) lines.push(`- Environment variables: ${r.env.join(", ")}`);
  if (r.config.length > 0) lines.push(`- Config keys: ${r.config.join(", ")}`);
  if (r.python_packages.length > 0)
    lines.push(`- Python packages: ${r.python_packages.join(", ")}`);
  if (metadata.primary_env !== undefined)
    lines.push(`- Primary environment variable: ${metadata.primary_env}`);
  for (const dep of metadata.dependencies ?? []) lines.push(`- ${dep}`);
  const install = metadata.install.map(describeRecipe);
  if (install.length > 0)
    lines.push(
      `- Install options (first that fits the OS):\n${install.map((l) => `  - ${l}`).join("\n")}`,
    );
  return lines.length === 0 ? "" : `Dependencies:\n${lines.join("\n")}`;
}

function describeRecipe(recipe: SkillRecipe): string {
  const target = recipe.formula ?? recipe.package ?? recipe.command ?? "";
  let text = `${recipe.kind}${target !== "" ? `: ${target}` : ""}`;
  if (recipe.os !== undefined) text += ` (${recipe.os.join(", ")})`;
  if (recipe.label !== undefined) text += ` — ${recipe.label}`;
  return text;
}
