// Commands throw ExitError; only main() turns it into an exit code and one line on stderr.
// (Same pattern as packages/cli; not imported from there, since the CLI sits below Nexus in the
// dependency order.)

/** Documented in `anna-nexus --help` and docs/nexus.md. */
export const EXIT = {
  ok: 0,
  /** Unexpected failure. */
  runtime: 1,
  /** Bad flags or arguments. */
  usage: 2,
  /**
   * A backing service unreachable at start (the database, the blob store, the event bus), an
   * unsupported database URL, or a migration failed.
   */
  database: 3,
  /** The thing to create exists already (e.g. the email is taken). */
  conflict: 4,
  /** The user (or other thing) named does not exist. */
  notFound: 5,
  /** The port is in use or cannot be bound. */
  listen: 6,
  /** The token signing keys cannot be decrypted (another ANNA_TOKEN_KEK or key file). */
  keys: 7,
  /**
   * The schema does not fit this build: migrations pending where it does not migrate by itself
   * (PostgreSQL, `--no-migrate`), or a newer Nexus migrated the database.
   */
  schema: 8,
} as const;

export class ExitError extends Error {
  readonly exitCode: number;
  constructor(exitCode: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ExitError";
    this.exitCode = exitCode;
  }
}

export function usageError(message: string, command = ""): ExitError {
  return new ExitError(
    EXIT.usage,
    `${message} (see: anna-nexus ${command ? command + " " : ""}--help)`,
  );
}
