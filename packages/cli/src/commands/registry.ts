// The command table. Modules load lazily so `anna-app --help` stays fast.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import type { CliIo } from "../cli/io.js";

export interface CommandModule {
  spec: CommandSpec;
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

export interface CommandEntry {
  /** Words of the command, e.g. ["executa", "dev"]. */
  path: readonly string[];
  summary: string;
  load(): Promise<CommandModule>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    path: ["executa", "dev"],
    summary: "Run one Tool plugin in isolation: REPL or one-shot describe/health/invoke",
    load: async () => (await import("./executa-dev.js")).command,
  },
  {
    path: ["executa", "init"],
    summary: "Scaffold a standalone Executa plugin (python, node, go or ts template)",
    load: async () => (await import("./executa-init.js")).command,
  },
  {
    path: ["init"],
    summary: "Scaffold an Anna App: manifest, app.json, UI bundle and a bundled executa",
    load: async () => (await import("./init.js")).command,
  },
  {
    path: ["doctor"],
    summary: "Check Node, Python, uv, Go and the dev key; say what each missing piece disables",
    load: async () => (await import("./doctor.js")).command,
  },
  {
    path: ["validate"],
    summary: "Check an app project: manifest schema, UI, tool ids, and (--strict) bundle grants",
    load: async () => (await import("./validate.js")).command,
  },
];

/** The longest command path that prefixes argv, and the rest of argv. */
export function findCommand(
  argv: readonly string[],
): { entry: CommandEntry; rest: string[] } | undefined {
  let found: { entry: CommandEntry; rest: string[] } | undefined;
  for (const entry of COMMANDS) {
    const n = entry.path.length;
    if (entry.path.every((w, i) => argv[i] === w)) {
      if (!found || n > found.entry.path.length) found = { entry, rest: argv.slice(n) };
    }
  }
  return found;
}
