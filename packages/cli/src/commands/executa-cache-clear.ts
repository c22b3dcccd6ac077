// `anna-app executa cache-clear` (R172): deletes `.anna/executa.json`; the next publish finds
// its executa again through the idempotency key, or mints one if it was deleted. No network.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { CWD_FLAG, cwdOf } from "../publish/cwd-flag.js";
import { clearIdentity, identityPath } from "../publish/identity-cache.js";
import type { CommandModule } from "./registry.js";

const NAME = "executa cache-clear";

const spec: CommandSpec = {
  name: NAME,
  summary: "Forget which server-side executa this folder publishes to (.anna/executa.json)",
  flags: [
    CWD_FLAG,
    { name: "json", type: "boolean", description: "One JSON line: {path, removed}" },
  ],
  examples: [
    "anna-app executa cache-clear",
    "anna-app executa cache-clear --cwd executas/weather --json",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    if (args.positionals.length > 0)
      throw usageError(`unexpected argument '${args.positionals[0]}'`, NAME);
    const dir = cwdOf(args.flags, io);
    const removed = await clearIdentity(dir);
    const file = identityPath(dir);
    io.stdout.write(
      args.flags.json === true
        ? JSON.stringify({ path: file, removed }) + "\n"
        : removed
          ? `${io.style.green("✓")} removed ${file}\n`
          : `nothing to clear: ${file} does not exist\n`,
    );
    return EXIT_OK;
  },
};
