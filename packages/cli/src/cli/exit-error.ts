// Commands throw ExitError; only main() turns it into an exit code and one line on stderr.

/** Documented exit codes (Reference L11547+): 0 ok, 1 runtime error, 2 launch/config error. */
export const EXIT_OK = 0;
export const EXIT_RUNTIME = 1;
export const EXIT_USAGE = 2;
/**
 * Exit codes of the commands that talk to a Nexus, as the published CLI uses them
 * (real-world-cli.md §0.2): 2 also means "no usable PAT" (none saved, expired, revoked, 401).
 */
export const EXIT_FORBIDDEN = 3;
/** The project on disk cannot be published as it is (executa.json missing a field, …). */
export const EXIT_INVALID_PROJECT = 4;
export const EXIT_REQUEST_FAILED = 5;
export const EXIT_SERVER = 6;
/** `apps release`: the app's status does not allow going live (shares 6 with server errors). */
export const EXIT_STATUS_FORBIDS = 6;
/** A destructive command refused because ANNA_CLI_NO_DESTRUCTIVE=1. */
export const EXIT_DESTRUCTIVE_REFUSED = 7;
/** `apps cut`: that version was already cut. */
export const EXIT_ALREADY_CUT = 9;
/** Shell convention for a run ended by a signal: 128 + its number. */
export const EXIT_SIGINT = 130;
export const EXIT_SIGTERM = 143;

export class ExitError extends Error {
  readonly exitCode: number;
  /** Printed verbatim instead of `message` when set (e.g. a JSON line for --json). */
  readonly output?: string;

  constructor(exitCode: number, message: string, options?: { cause?: unknown; output?: string }) {
    super(message, { cause: options?.cause });
    this.name = "ExitError";
    this.exitCode = exitCode;
    if (options?.output !== undefined) this.output = options.output;
  }
}

export function usageError(message: string, command?: string): ExitError {
  const hint = command ? ` (see: anna-app ${command} --help)` : " (see: anna-app --help)";
  return new ExitError(EXIT_USAGE, message + hint);
}
