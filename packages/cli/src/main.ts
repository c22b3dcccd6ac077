// Entry of the anna-app CLI: finds the command, prints help, and turns errors into exit codes.
// Nothing else in the CLI sets the exit code or prints a stack trace.
import { closest, parseArgs, renderHelp } from "./cli/args.js";
import { EXIT_OK, EXIT_RUNTIME, EXIT_USAGE, ExitError } from "./cli/exit-error.js";
import { processIo, type CliIo } from "./cli/io.js";
import { COMMANDS, findCommand } from "./commands/registry.js";
import { CLI_VERSION } from "./version.js";

export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
      io.stdout.write(topLevelHelp(io));
      return EXIT_OK;
    }
    if (argv[0] === "--version" || argv[0] === "-v") {
      io.stdout.write(`anna-app ${CLI_VERSION}\n`);
      return EXIT_OK;
    }
    const found = findCommand(argv);
    if (!found) {
      const groupHelp = await groupCommands(argv[0] as string);
      if (groupHelp && (argv.length === 1 || argv[1] === "--help")) {
        io.stdout.write(groupHelp);
        return argv.length === 1 ? EXIT_USAGE : EXIT_OK;
      }
      const names = COMMANDS.map((c) => c.path.join(" "));
      const tried = argv.slice(0, 2).join(" ");
      const hint = closest(tried, names) ?? closest(argv[0] as string, names);
      throw new ExitError(
        EXIT_USAGE,
        `unknown command '${tried}'${hint ? `; did you mean '${hint}'?` : ""} (see: anna-app --help)`,
      );
    }
    const command = await found.entry.load();
    const args = parseArgs(command.spec, found.rest);
    if (args.flags.help) {
      io.stdout.write(renderHelp(command.spec, io.style));
      return EXIT_OK;
    }
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof ExitError) {
      if (error.output !== undefined) io.stdout.write(error.output + "\n");
      else io.stderr.write(`${io.errStyle.red("error:")} ${error.message}\n`);
      return error.exitCode;
    }
    // A bad ANNA_EXECUTA_SUPERVISOR is a configuration mistake like a bad flag (matched by name so
    // that main does not load the host to recognise it).
    if (error instanceof Error && error.name === "SupervisorError") {
      io.stderr.write(`${io.errStyle.red("error:")} ${error.message}\n`);
      return EXIT_USAGE;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`${io.errStyle.red("error:")} ${message}\n`);
    if (io.env.ANNA_DEBUG) io.stderr.write(`${(error as Error)?.stack ?? ""}\n`);
    return EXIT_RUNTIME;
  }
}

function topLevelHelp(io: CliIo): string {
  const b = io.style.bold;
  const width = Math.max(...COMMANDS.map((c) => c.path.join(" ").length)) + 2;
  const lines = [
    `${b("anna-app")} ${CLI_VERSION} — the Anna platform developer CLI`,
    "",
    `${b("Usage:")} anna-app <command> [options]`,
    "",
    b("Commands:"),
    ...COMMANDS.map((c) => `  ${c.path.join(" ").padEnd(width)}${c.summary}`),
    "",
    b("Examples:"),
    "  anna-app executa dev --dir examples/executas/ts-notes",
    '  anna-app executa dev --dir ./my-plugin --invoke echo --args \'{"text":"hi"}\' --json',
    "",
    "Run 'anna-app <command> --help' for the options of a command.",
    "Exit codes: 0 success, 1 runtime error, 2 usage or launch error (and: not logged in, token",
    "rejected); commands that talk to a Nexus also use 3 forbidden, 5 request refused, 6 server",
    "error or unreachable.",
  ];
  return lines.join("\n") + "\n";
}

/** Examples each member command contributes to its group's help (the rest: `<command> --help`). */
const GROUP_EXAMPLES_PER_COMMAND = 2;

/** A group's help: its commands, then the first examples of each (from the commands' own specs). */
async function groupCommands(group: string): Promise<string | undefined> {
  const members = COMMANDS.filter((c) => c.path.length > 1 && c.path[0] === group);
  if (members.length === 0) return undefined;
  const width = Math.max(...members.map((c) => c.path.join(" ").length)) + 2;
  const specs = await Promise.all(members.map(async (c) => (await c.load()).spec));
  return (
    [
      `Usage: anna-app ${group} <command> [options]`,
      "",
      "Commands:",
      ...members.map((c) => `  ${c.path.join(" ").padEnd(width)}${c.summary}`),
      "",
      "Examples:",
      ...specs.flatMap((spec) =>
        spec.examples.slice(0, GROUP_EXAMPLES_PER_COMMAND).map((e) => `  ${e}`),
      ),
      "",
      `Run 'anna-app ${group} <command> --help' for every flag and more examples.`,
    ].join("\n") + "\n"
  );
}
