// How a platform tool is declared: a zod schema for its input (the model-facing JSON Schema is
// generated from it, so the two cannot drift) and a handler. The handler throws
// `PlatformToolError` for anything the model can fix or should hear about; the wrapper turns it
// into an `isError` outcome the model reads (`{error: {code, message}}`), never a thrown error,
// so one bad call does not fail the turn.
import { z } from "zod";
import type { AgentTool, ToolContext, ToolOutcome } from "../turns/types.js";

/** The codes a platform tool answers with; the message always says what would be right. */
export type PlatformToolErrorCode =
  | "INVALID_ARGUMENT"
  | "PATH_INVALID"
  | "PATH_OUTSIDE_WORKSPACE"
  | "NOT_FOUND"
  | "ALREADY_EXISTS"
  | "NOT_A_FILE"
  | "NOT_A_DIRECTORY"
  | "DIRECTORY_NOT_EMPTY"
  | "TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "NOT_CONFIGURED"
  | "NOT_GRANTED"
  | "PROVIDER_ERROR"
  | "FETCH_FAILED"
  | "CANCELLED"
  // The app-view codes of the spec's failure table (L6799–6807) keep their lower-case spelling.
  | "app_not_installed"
  | "bundle_not_ready"
  | "version_not_published"
  | "agent_unavailable"
  | "quota_exceeded"
  | "not_found";

export class PlatformToolError extends Error {
  readonly code: PlatformToolErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: PlatformToolErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "PlatformToolError";
    this.code = code;
    this.details = options.details;
  }
}

export interface PlatformToolSpec<S extends z.ZodType> {
  name: string;
  family: string;
  description: string;
  input: S;
  timeoutMs?: number;
  run(input: z.output<S>, ctx: ToolContext): Promise<unknown>;
  /**
   * Whether a result the handler returned is still a failure the model should read as one
   * (a command that exited non-zero): its output is kept whole, only flagged.
   */
  failed?(output: unknown): boolean;
}

export function errorOutcome(error: PlatformToolError): ToolOutcome {
  return {
    isError: true,
    output: {
      error: {
        code: error.code,
        message: error.message,
        ...(error.details === undefined ? {} : { details: error.details }),
      },
    },
  };
}

/** The input issues as one sentence per field, so the model can correct its call. */
function describeIssues(name: string, issues: readonly z.core.$ZodIssue[]): string {
  const parts = issues.slice(0, 5).map((issue) => {
    const at = issue.path.length === 0 ? "input" : issue.path.map(String).join(".");
    return `${at}: ${issue.message}`;
  });
  return `${name}: invalid arguments (${parts.join("; ")})`;
}

export function platformTool<S extends z.ZodType>(spec: PlatformToolSpec<S>): AgentTool {
  const parameters = z.toJSONSchema(spec.input, { io: "input" }) as Record<string, unknown>;
  delete parameters.$schema;
  return {
    name: spec.name,
    description: spec.description,
    parameters,
    source: { kind: "platform", family: spec.family },
    ...(spec.timeoutMs === undefined ? {} : { timeoutMs: spec.timeoutMs }),
    async execute(raw, ctx) {
      const parsed = spec.input.safeParse(raw ?? {});
      if (!parsed.success) {
        return errorOutcome(
          new PlatformToolError("INVALID_ARGUMENT", describeIssues(spec.name, parsed.error.issues)),
        );
      }
      try {
        const output = await spec.run(parsed.data, ctx);
        return spec.failed === undefined ? { output } : { output, isError: spec.failed(output) };
      } catch (error) {
        if (error instanceof PlatformToolError) return errorOutcome(error);
        if (ctx.signal.aborted) {
          return errorOutcome(
            new PlatformToolError("CANCELLED", `${spec.name} was cancelled`, { cause: error }),
          );
        }
        throw error;
      }
    },
  };
}
