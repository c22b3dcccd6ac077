// What prompt assembly needs to build one turn's prompt. Everything is a plain value the caller
// read from its stores (Nexus: user_apps, user_executas, the skill index); assembly itself reads
// nothing, so the same input always gives the same prompt.

import type { AppManifest, ExecutaManifest, ToolDefinition } from "@anna-ai/app-schema";
import type { Skill, SkillSummary } from "@anna-ai/skills";
import type { ChatMessage } from "../gateway/types.js";
import type { AgentTool } from "../turns/types.js";
import type { PromptLimits } from "./limits.js";

/**
 * A tool executa the user has installed (`UserExecuta`), with the manifest of its installed
 * version. Installed skill executas go to `skills` instead: they have no process to call.
 */
export interface PromptExecuta {
  toolId: string;
  /** The catalogue slug: what `@slug` mentions and what qualifies its tool names. */
  slug: string;
  name: string;
  description?: string;
  enabled: boolean;
  /**
   * `user`: installed by the user, its tools are offered every turn. `app`: auto-installed by an
   * app (A35), its tools are offered only in turns that activate it (a `#mention` of an app that
   * bundles it, or an `@mention` of the executa itself).
   */
  source: "user" | "app";
  /** The `describe` result of the installed version; `tools[]` carry the declared parameters (T6). */
  manifest: Pick<ExecutaManifest, "tools">;
}

/** Identifies one tool of one executa for the executor. */
export interface ExecutaToolTarget {
  toolId: string;
  /** The tool's own name from the manifest (what `invoke` sends as `tool`, H9). */
  tool: string;
  definition: ToolDefinition;
}

/**
 * The seam to the executor: given an executa tool, the function that runs it. Assembly owns the
 * model-facing name, description, schema and timeout; the executor owns running it.
 */
export type BindExecutaTool = (target: ExecutaToolTarget) => AgentTool["execute"];

/** An app the user has installed (`UserAnnaApp`), with the manifest of its installed version (X49). */
export interface PromptApp {
  appId: string;
  slug: string;
  name: string;
  version: string;
  tagline?: string;
  enabled: boolean;
  manifest: Pick<
    AppManifest,
    | "schema"
    | "required_executas"
    | "optional_executas"
    | "system_prompt_addendum"
    | "user_message_prefix_template"
    | "ui"
  >;
}

/** The user's skills: the index lists summaries, bodies are read when the model asks (S18). */
export interface SkillCatalog {
  list(): readonly SkillSummary[];
  load(id: string): Promise<Skill>;
}

export interface PromptInput {
  /** This turn's message, as the user typed it; it reaches the model unchanged (A40). */
  text: string;
  history: readonly ChatMessage[];
  /** The platform's own instructions, first in the system prompt. */
  baseSystem?: string;
  skills?: SkillCatalog;
  /** Bodies inlined in the system prompt every turn: the `always: true` skills (S15). */
  alwaysSkills?: readonly Skill[];
  executas: readonly PromptExecuta[];
  bindExecutaTool: BindExecutaTool;
  apps: readonly PromptApp[];
  /** Tools every turn has (web search, fs, exec…); their names win every collision. */
  platformTools?: readonly AgentTool[];
  /** `open_app_view` and friends: added only when an activated app has UI views (A42). */
  appViewTools?: readonly AgentTool[];
  /**
   * Mentions the client resolved itself (L185: the frontend sends the `app_id`), by app id or
   * slug and by executa tool id or slug; they follow the ones found in `text`.
   */
  mentions?: { apps?: readonly string[]; executas?: readonly string[] };
  limits?: Partial<PromptLimits>;
}
