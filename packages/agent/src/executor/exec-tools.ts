// The exec_* platform tools (§P sandbox registry: exec_run, exec_run_commands) against the
// user's workspace on the server, each command in the same bubblewrap sandbox plugins get, with
// its workspace read-write at /workspace. The spec names the tools only; parameters and limits
// here are this server's (see docs/agent.md "Sandbox").

import * as path from "node:path";
import { z } from "zod";
import { PlatformToolError, platformTool } from "../platform-tools/platform-tool.js";
import type { AgentTool, ToolContext } from "../turns/types.js";
import { runSandboxed, type RunResult } from "./run-sandboxed.js";
import { SANDBOX_WORKSPACE, SandboxRefusedError, type Sandbox } from "./sandbox.js";

export const EXEC_DEFAULT_TIMEOUT_MS = 30_000;
export const EXEC_MAX_TIMEOUT_MS = 300_000;
export const EXEC_MAX_OUTPUT_BYTES = 64 * 1024;
export const EXEC_MAX_COMMANDS = 20;
export const EXEC_MAX_COMMAND_CHARS = 16 * 1024;

const command = z
  .string({ error: "must be a non-empty string with the shell command to run" })
  .refine((v) => v.trim() !== "", "must be a non-empty string with the shell command to run")
  .max(
    EXEC_MAX_COMMAND_CHARS,
    `is longer than ${EXEC_MAX_COMMAND_CHARS} characters; shorten it or write a script file first`,
  );
const timeoutMs = z
  .number({ error: `expected a whole number from 1 to ${EXEC_MAX_TIMEOUT_MS}` })
  .int(`expected a whole number from 1 to ${EXEC_MAX_TIMEOUT_MS}`)
  .min(1, `expected a whole number from 1 to ${EXEC_MAX_TIMEOUT_MS}`)
  .max(EXEC_MAX_TIMEOUT_MS, `expected a whole number from 1 to ${EXEC_MAX_TIMEOUT_MS}`);
const cwd = z
  .string()
  .optional()
  .describe(
    `Working directory, relative to the workspace (${SANDBOX_WORKSPACE}); default the workspace itself.`,
  );

const execRunInput = z.strictObject({
  command: command.describe("The shell command."),
  cwd,
  timeout_ms: timeoutMs
    .optional()
    .describe(`Milliseconds before the command is killed (default ${EXEC_DEFAULT_TIMEOUT_MS}).`),
});

const execRunCommandsInput = z.strictObject({
  commands: z
    .array(command, { error: `must be a list of 1 to ${EXEC_MAX_COMMANDS} shell commands` })
    .min(1, `must be a list of 1 to ${EXEC_MAX_COMMANDS} shell commands`)
    .max(EXEC_MAX_COMMANDS, `must be a list of 1 to ${EXEC_MAX_COMMANDS} shell commands`),
  cwd,
  stop_on_error: z.boolean().optional().describe("Default true."),
  timeout_ms: timeoutMs.optional().describe(`Per command; default ${EXEC_DEFAULT_TIMEOUT_MS}.`),
});

/** `cwd` inside the sandbox: under /workspace, or an error naming the escape. */
export function workspaceCwd(raw: string | undefined): string {
  if (raw === undefined || raw === "") return SANDBOX_WORKSPACE;
  const resolved = path.posix.resolve(SANDBOX_WORKSPACE, raw);
  if (resolved !== SANDBOX_WORKSPACE && !resolved.startsWith(`${SANDBOX_WORKSPACE}/`)) {
    throw new PlatformToolError(
      "PATH_OUTSIDE_WORKSPACE",
      `cwd "${raw}" leaves the workspace; give a folder inside ${SANDBOX_WORKSPACE}`,
    );
  }
  return resolved;
}

function summary(command: string, result: RunResult): Summary & Record<string, unknown> {
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

/** What `summary` reports of a run, read back to flag the outcome. */
interface Summary {
  exit_code: number | null;
  timed_out?: true;
  cancelled?: true;
}

function summaryFailed(s: Summary): boolean {
  return s.exit_code !== 0 || s.timed_out === true || s.cancelled === true;
}

/** The sandbox's refusal, as the error the model reads (the operator's fix is in its message). */
function assertRunnable(sandbox: Sandbox, what: string): void {
  try {
    sandbox.assertRunnable(what, false);
  } catch (error) {
    if (error instanceof SandboxRefusedError) {
      throw new PlatformToolError("NOT_CONFIGURED", error.message, { cause: error });
    }
    throw error;
  }
}

export function execTools(sandbox: Sandbox): AgentTool[] {
  const execRun = platformTool({
    name: "exec_run",
    family: "exec",
    description: `Run one shell command (/bin/sh -c) in the user's sandboxed workspace (${SANDBOX_WORKSPACE}). REAL side effects.`,
    input: execRunInput,
    timeoutMs: EXEC_MAX_TIMEOUT_MS + 5_000,
    async run(args, ctx) {
      const dir = workspaceCwd(args.cwd);
      assertRunnable(sandbox, "exec_run");
      const timeout = args.timeout_ms ?? EXEC_DEFAULT_TIMEOUT_MS;
      const result = await runOne(sandbox, ctx, args.command, dir, timeout);
      return summary(args.command, result);
    },
    failed: (output) => summaryFailed(output as Summary),
  });
  const execRunCommands = platformTool({
    name: "exec_run_commands",
    family: "exec",
    description:
      `Run shell commands one after another in the user's sandboxed workspace (${SANDBOX_WORKSPACE}); ` +
      "stops at the first failure unless stop_on_error is false. REAL side effects.",
    input: execRunCommandsInput,
    timeoutMs: EXEC_MAX_TIMEOUT_MS + 5_000,
    async run(args, ctx) {
      const dir = workspaceCwd(args.cwd);
      const timeout = args.timeout_ms ?? EXEC_DEFAULT_TIMEOUT_MS;
      const stopOnError = args.stop_on_error !== false;
      assertRunnable(sandbox, "exec_run_commands");
      const results: Record<string, unknown>[] = [];
      for (const command of args.commands) {
        if (ctx.signal.aborted) break;
        const result = await runOne(sandbox, ctx, command, dir, timeout);
        results.push(summary(command, result));
        if (failed(result) && stopOnError) break;
      }
      return { results, ran: results.length, of: args.commands.length };
    },
    failed: (output) => (output as { results: Summary[] }).results.some(summaryFailed),
  });
  return [execRun, execRunCommands];
}
