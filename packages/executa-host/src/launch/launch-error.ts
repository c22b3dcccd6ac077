// Every way detection can fail. The message is one line naming the file or folder, what is wrong
// and what would be right, because the CLI prints it as-is (exit code 2, L11556).

export type LaunchErrorCode =
  | "NO_PLUGIN_FOUND"
  | "GO_MOD_WITHOUT_EXECUTA_JSON"
  | "INVALID_EXECUTA_JSON"
  | "INVALID_PROJECT_FILE"
  | "INVALID_SPEC"
  | "AMBIGUOUS_PLUGIN"
  | "MISSING_DIRECTORY"
  /** `type: "mcp"` but the bridge was not built. */
  | "MCP_BRIDGE_MISSING"
  /** The folder is a skill (SKILL.md): there is no process to start. */
  | "IS_SKILL";

export class LaunchError extends Error {
  readonly code: LaunchErrorCode;
  /** The file or folder the message is about, for callers that group errors per plugin. */
  readonly path: string | undefined;
  /** For INVALID_EXECUTA_JSON: the offending field, so discovery can tell "missing tool_id". */
  readonly field: string | undefined;

  constructor(
    code: LaunchErrorCode,
    message: string,
    options: { path?: string; field?: string; cause?: unknown } = {},
  ) {
    // One line: the CLI prints messages verbatim and log lines must not break.
    super(message.replace(/\s*\r?\n\s*/g, " "), { cause: options.cause });
    this.name = "LaunchError";
    this.code = code;
    this.path = options.path;
    this.field = options.field;
  }
}
