// The exec_* platform tools (§P sandbox registry: exec_run, exec_run_commands) against the
// user's workspace on the server, each command in the same bubblewrap sandbox plugins get, with
// its workspace read-write at /workspace. The spec names the tools only; parameters and limits
// here are this server's (see docs/agent.md "Sandbox").

import * as path from "node:path";
import type { AgentTool, ToolContext, ToolOutcome } from "../turns/types.js";
import { runSandboxed, type RunResult } from "./run-sandboxed.js";
import { SANDBOX_WORKSPACE, type Sandbox } from "./sandbox.js";

export const EXEC_DEFAULT_TIMEOUT_MS = 30_000;
export const EXEC_MAX_TIMEOUT_MS = 300_000;
export const EXEC_MAX_OUTPUT_BYTES = 64 * 1024;
export const EXEC_MAX_COMMANDS = 20;
export const EXEC_MAX_COMMAND_CHARS = 16 * 1024;

const TIMEOUT_PARAM = {
  type: "integer",
  minimum: 1,
  maximum: EXEC_MAX_TIMEOUT_MS,
  description: `Milliseconds before the command is killed (default ${EXEC_DEFAULT_TIMEOUT_MS}).`,
};
const CWD_PARAM = {
  type: "string",
  description: `Working directory, relative to the workspace (${SANDBOX_WORKSPACE}); default the workspace itself.`,
};

class ExecInputError extends Error {}

function record(input: unknown): Record<string, unknown> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new ExecInputError(`the arguments must be a JSON object, got ${JSON.stringify(input)}`);
  }
  return input as Record<string, unknown>;
}

function commandText(value: unknown, name: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new ExecInputError(`${name} must be a non-empty string with the shell command to run`);
  }
  if (value.length > EXEC_MAX_COMMAND_CHARS) {
    throw new ExecInputError(
      `${name} is ${value.length} characters; at most ${EXEC_MAX_COMMAND_CHARS}`,
    );
  }
  return value;
}

function timeoutOf(args: Record<string, unknown>): number {
  const raw = args.timeout_ms;
  if (raw === undefined) return EXEC_DEFAULT_TIMEOUT_MS;
  if (typeof raw !== "number" || !Number.isInteger(raw) || raw < 1 || raw > EXEC_MAX_TIMEOUT_MS) {
    throw new ExecInputError(
      `timeout_ms is ${JSON.stringify(raw)}; expected a whole number from 1 to ${EXEC_MAX_TIMEOUT_MS}`,
    );
  }
  return raw;
}

/** `cwd` inside the sandbox: under /workspace, or an error naming the escape. */
export function workspaceCwd(raw: unknown): string {
  if (raw === undefined || raw === "") return SANDBOX_WORKSPACE;
  if (typeof raw !== "string")
    throw new ExecInputError(`cwd must be a string, got ${JSON.stringify(raw)}`);
  const resolved = path.posix.resolve(SANDBOX_WORKSPACE, raw);
  if (resolved !== SANDBOX_WORKSPACE && !resolved.startsWith(`${SANDBOX_WORKSPACE}/`)) {
    throw new ExecInputError(
      `cwd "${raw}" leaves the workspace; give a folder inside ${SANDBOX_WORKSPACE}`,
    );
  }
  return resolved;
}

function summary(command: string, result: RunResult): Record<string, unknown> {
  return {
    command,
    exit_code: result.exitCode,
    ...(result.signal === null ? {} : { signal: result.signal }),
    stdout: result.stdout,
    stderr: result.stderr,
    ...(result.truncated.stdout + result.truncated.stderr > 0
      ? {
          truncated_bytes: result.truncated,
          note: `output past ${EXEC_MAX_OUTPUT_BYTES} bytes per stream was dropped`,
        }
      : {}),
    ...(result.timedOut ? { timed_out: true } : {}),
    ...(result.aborted ? { cancelled: true } : {}),
    duration_ms: result.durationMs,
  };
}

async function runOne(
  sandbox: Sandbox,
  ctx: ToolContext,
  command: string,
  cwd: string,
  timeoutMs: number,
): Promise<RunResult> {
  return runSandboxed(
    sandbox.execCommand(ctx.userId, command, cwd),
    { timeoutMs, maxOutputBytes: EXEC_MAX_OUTPUT_BYTES },
    ctx.signal,
  );
}

function failed(result: RunResult): boolean {
  return result.exitCode !== 0 || result.timedOut || result.aborted;
}

async function guarded(body: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
  try {
    return await body();
  } catch (error) {
    return { output: { error: (error as Error).message }, isError: true };
  }
}

export function execTools(sandbox: Sandbox): AgentTool[] {
  const execRun: AgentTool = {
    name: "exec_run",
    description: `Run one shell command (/bin/sh -c) in the user's sandboxed workspace (${SANDBOX_WORKSPACE}). REAL side effects.`,
    parameters: {
      type: "object",
      properties: {
        command: { type: "string", description: "The shell command." },
        cwd: CWD_PARAM,
        timeout_ms: TIMEOUT_PARAM,
      },
      required: ["command"],
      additionalProperties: false,
    },
    source: { kind: "platform", family: "exec" },
    timeoutMs: EXEC_MAX_TIMEOUT_MS + 5_000,
    execute: (input, ctx) =>
      guarded(async () => {
        const args = record(input);
        const command = commandText(args.command, "command");
        const cwd = workspaceCwd(args.cwd);
        sandbox.assertRunnable("exec_run", false);
        const result = await runOne(sandbox, ctx, command, cwd, timeoutOf(args));
        return { output: summary(command, result), isError: failed(result) };
      }),
  };
  const execRunCommands: AgentTool = {
    name: "exec_run_commands",
    description:
      `Run shell commands one after another in the user's sandboxed workspace (${SANDBOX_WORKSPACE}); ` +
      "stops at the first failure unless stop_on_error is false. REAL side effects.",
    parameters: {
      type: "object",
      properties: {
        commands: {
          type: "array",
          items: { type: "string" },
          minItems: 1,
          maxItems: EXEC_MAX_COMMANDS,
        },
        cwd: CWD_PARAM,
        stop_on_error: { type: "boolean", description: "Default true." },
        timeout_ms: { ...TIMEOUT_PARAM, description: "Per command; default 30000." },
      },
      required: ["commands"],
      additionalProperties: false,
    },
    source: { kind: "platform", family: "exec" },
    timeoutMs: EXEC_MAX_TIMEOUT_MS + 5_000,
    execute: (input, ctx) =>
      guarded(async () => {
        const args = record(input);
        if (
          !Array.isArray(args.commands) ||
          args.commands.length === 0 ||
          args.commands.length > EXEC_MAX_COMMANDS
        ) {
          throw new ExecInputError(
            `commands must be a list of 1 to ${EXEC_MAX_COMMANDS} shell commands`,
          );
        }
        const commands = args.commands.map((c, i) => commandText(c, `commands[${i}]`));
        const cwd = workspaceCwd(args.cwd);
        const timeoutMs = timeoutOf(args);
        const stopOnError = args.stop_on_error !== false;
        sandbox.assertRunnable("exec_run_commands", false);
        const results: Record<string, unknown>[] = [];
        let anyFailed = false;
        for (const command of commands) {
          if (ctx.signal.aborted) break;
          const result = await runOne(sandbox, ctx, command, cwd, timeoutMs);
          results.push(summary(command, result));
          anyFailed ||= failed(result);
          if (failed(result) && stopOnError) break;
        }
        return {
          output: { results, ran: results.length, of: commands.length },
          isError: anyFailed,
        };
      }),
  };
  return [execRun, execRunCommands];
}
