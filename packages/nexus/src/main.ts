// The only module that reads the process: argv, environment, stdin, signals. Commands throw
// ExitError; this turns it into one line on stderr and the documented exit code. Commands are
// imported when run: `migrate` need not load the whole server.
import { EXIT, ExitError, usageError } from "./cli/exit.js";
import type { CliIo } from "./cli/io.js";

export const MAIN_HELP = `Usage: anna-nexus <command> [options]

Nexus, the Anna platform server.

Commands:
  start             run the server (SQLite in ./.anna-data unless DATABASE_URL says postgres://…)
  migrate           apply pending database migrations (once per upgrade; start does it on SQLite)
  admin <command>   create-user, list-users, grant-developer, revoke-developer, reset-password,
                    rotate-keys

Exit codes:
  0 ok · 1 unexpected error · 2 usage error
  3 database, blob store or event bus unavailable, or a migration failed
  4 already exists · 5 not found · 6 cannot listen on the port
  7 token signing keys cannot be decrypted (another ANNA_TOKEN_KEK or key file)
  8 database schema not current: pending migrations (run anna-nexus migrate) or newer than this version

Examples:
  anna-nexus start
  anna-nexus migrate --database-url postgres://anna@localhost/anna
  anna-nexus start --port 9000 --database-url postgres://anna@localhost/anna
  printf '%s' "$PASSWORD" | anna-nexus admin create-user --email dev@example.com --password-stdin --developer
  anna-nexus admin list-users --json

Run 'anna-nexus <command> --help' for a command's options.`;

function processIo(): CliIo {
  return {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    stdin: process.stdin,
    stderrIsTty: process.stderr.isTTY === true,
    env: process.env,
    cwd: process.cwd(),
  };
}

function stopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (sig: NodeJS.Signals) => {
      process.off("SIGTERM", on);
      process.off("SIGINT", on);
      resolve(sig);
    };
    process.once("SIGTERM", on);
    process.once("SIGINT", on);
  });
}

export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
        io.stderr(MAIN_HELP + "\n");
        return EXIT.usage;
      case "--help":
      case "-h":
      case "help":
        io.stdout(MAIN_HELP + "\n");
        return EXIT.ok;
      case "start":
        return await (
          await import("./cli/start.js")
        ).runStart(rest, io, {
          stopSignal: stopSignal(),
        });
      case "migrate":
        return await (await import("./cli/migrate.js")).runMigrate(rest, io);
      case "admin":
        return await (await import("./cli/admin.js")).runAdmin(rest, io);
      default:
        throw usageError(`unknown command '${command}'`);
    }
  } catch (err) {
    if (err instanceof ExitError) {
      io.stderr(`anna-nexus: ${err.message}\n`);
      return err.exitCode;
    }
    io.stderr(
      `anna-nexus: unexpected error: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    return EXIT.runtime;
  }
}
