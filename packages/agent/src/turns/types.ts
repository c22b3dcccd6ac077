// The agent runtime's shared vocabulary: what a turn is made of, what a tool the model may call
// looks like (whatever serves it: an installed executa, a platform tool, a skill), and the events
// a turn streams. Prompt assembly, the executor, the platform tools and the turn runner all meet
// here, so none of them imports another's internals.

import type { ChatMessage, ChatTool, FinishReason, Usage } from "../gateway/types.js";

/** Who and what a tool call is made for; passed to every `AgentTool.execute`. */
export interface ToolContext {
  userId: string;
  conversationId: string;
  turnId: string;
  /** The `#mention`ed app the tool was activated by, when it was. */
  appId?: string;
  /** Aborts when the turn is cancelled or the tool's own timeout fires. */
  signal: AbortSignal;
}

/** What a tool call produced; `isError` results go back to the model as errors, not thrown. */
export interface ToolOutcome {
  output: unknown;
  isError?: boolean;
}

/** Where a tool comes from, for the UI, the event stream and usage accounting. */
export type ToolSource =
  | { kind: "executa"; toolId: string; tool: string }
  | { kind: "platform"; family: string }
  | { kind: "skill"; skill: string };

/**
 * A tool the model may call in a turn. `name` is unique within one turn's tool list (the
 * model-facing name); `parameters` is a JSON Schema object, as in `ChatTool`.
 */
export interface AgentTool extends ChatTool {
  source: ToolSource;
  /** The tool's own time limit; the runner aborts `ctx.signal` and reports an error result. */
  timeoutMs?: number;
  execute(input: unknown, ctx: ToolContext): Promise<ToolOutcome>;
}

/** What prompt assembly hands the runner for one turn. */
export interface AssembledPrompt {
  system: string;
  /** The conversation so far plus this turn's user message (with any app prefix applied). */
  messages: ChatMessage[];
  tools: AgentTool[];
  /** The apps `#mention`ed and activated for this turn, by id. */
  activatedApps: string[];
  /** Things the user should know (an app mentioned but not installed, a disabled executa). */
  notices: string[];
}

export type TurnStatus = "running" | "completed" | "cancelled" | "failed" | "step_limit";

/**
 * One frame of a turn's stream. Each frame stored gets a sequence number (its SSE `id:`); a
 * client that reconnects with `Last-Event-ID` receives every frame after it, then the live ones.
 */
export type TurnEvent =
  | { type: "turn.started"; turnId: string; conversationId: string; activatedApps: string[] }
  | { type: "notice"; message: string }
  | { type: "step.started"; step: number }
  | { type: "text.delta"; text: string }
  | {
      type: "tool.call";
      callId: string;
      name: string;
      input: unknown;
      source: ToolSource;
    }
  | {
      type: "tool.result";
      callId: string;
      name: string;
      output: unknown;
      isError: boolean;
      durationMs: number;
    }
  | { type: "step.finished"; step: number; finishReason: FinishReason; usage: Usage }
  | {
      type: "turn.finished";
      status: Exclude<TurnStatus, "running">;
      usage: Usage;
      /** Set when `status` is `failed`: what went wrong, in words a user can act on. */
      error?: { code: string; message: string };
    };
