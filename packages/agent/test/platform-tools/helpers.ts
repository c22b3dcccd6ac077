import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { onTestFinished } from "vitest";
import type { AgentTool, ToolContext, ToolOutcome } from "../../src/turns/types.js";

export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `anna-${prefix}-`));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export function context(userId = "u_alice", extra: Partial<ToolContext> = {}): ToolContext {
  return {
    userId,
    conversationId: "conv_1",
    turnId: "turn_1",
    signal: AbortSignal.timeout(30_000),
    ...extra,
  };
}

export function toolNamed(tools: readonly AgentTool[], name: string): AgentTool {
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined)
    throw new Error(`no tool ${name} among ${tools.map((t) => t.name).join(", ")}`);
  return tool;
}

/** Calls `name` and returns its output, failing the test if the call reported an error. */
export async function ok(
  tools: readonly AgentTool[],
  name: string,
  input: unknown,
  ctx = context(),
): Promise<Record<string, unknown>> {
  const outcome = await toolNamed(tools, name).execute(input, ctx);
  if (outcome.isError === true) {
    throw new Error(`${name} failed: ${JSON.stringify(outcome.output)}`);
  }
  return outcome.output as Record<string, unknown>;
}

/** Calls `name` expecting an error outcome; returns its `{code, message}`. */
export async function fails(
  tools: readonly AgentTool[],
  name: string,
  input: unknown,
  ctx = context(),
): Promise<{ code: string; message: string }> {
  const outcome: ToolOutcome = await toolNamed(tools, name).execute(input, ctx);
  if (outcome.isError !== true) {
    throw new Error(`${name} succeeded but should have failed: ${JSON.stringify(outcome.output)}`);
  }
  return (outcome.output as { error: { code: string; message: string } }).error;
}
