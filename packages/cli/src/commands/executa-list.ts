// `anna-app executa list` (R172, E3): the executas (tools and skills) the current PAT owns.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG, accountFlag, selectAccount } from "../account/select-account.js";
import { listExecutas } from "../publish/executa-refs.js";
import { table } from "../publish/table.js";
import type { CommandModule } from "./registry.js";

const NAME = "executa list";

const spec: CommandSpec = {
  name: NAME,
  summary: "List the executas (tools and skills) you own on the server",
  flags: [
    ACCOUNT_FLAG,
    { name: "json", type: "boolean", description: "One JSON line: {host, executas:[…]}" },
  ],
  examples: [
    "anna-app executa list",
    "anna-app executa list --account https://nexus.example.com --json",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    if (args.positionals.length > 0)
      throw usageError(`unexpected argument '${args.positionals[0]}'`, NAME);
    const { client, host } = await selectAccount(io.env, {
      command: NAME,
      account: accountFlag(args.flags),
    });
    const rows = await listExecutas(client);
    if (args.flags.json === true) {
      io.stdout.write(JSON.stringify({ host, executas: rows }) + "\n");
      return EXIT_OK;
    }
    if (rows.length === 0) {
      io.stdout.write(`no executas on ${host} yet; publish one with 'anna-app executa publish'\n`);
      return EXIT_OK;
    }
    io.stdout.write(
      table(
        io,
        ["TOOL_ID", "TYPE", "VISIBILITY", "VERSION"],
        rows.map((r) => [
          r.tool_id,
          String(r.executa_type ?? "tool"),
          String(r.visibility ?? "?"),
          String(r.version ?? "—"),
        ]),
      ),
    );
    return EXIT_OK;
  },
};
