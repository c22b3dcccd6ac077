// `anna-app token scopes` (R173): the server's PAT scope catalogue.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG, accountFlag, selectAccount } from "../account/select-account.js";
import type { CommandModule } from "./registry.js";

const NAME = "token scopes";

const spec: CommandSpec = {
  name: NAME,
  summary: "List the scopes a developer token can carry on the server",
  flags: [
    ACCOUNT_FLAG,
    {
      name: "json",
      type: "boolean",
      description: "One JSON line: {host, scopes:[{name, description}]}",
    },
  ],
  examples: [
    "anna-app token scopes",
    "anna-app token scopes --json",
    "anna-app token scopes --account https://nexus.example.com",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    if (args.positionals.length > 0) {
      throw usageError(`unexpected argument '${args.positionals[0]}'`, NAME);
    }
    const { client, host } = await selectAccount(io.env, {
      command: NAME,
      account: accountFlag(args.flags),
    });
    const res = await client.get<{ scopes?: unknown }>("/api/v1/anna-apps/dev/tokens/scopes", {
      what: "listing scopes",
    });
    const scopes = (Array.isArray(res.body?.scopes) ? res.body.scopes : []) as {
      name?: unknown;
      description?: unknown;
    }[];
    if (args.flags.json === true) {
      io.stdout.write(JSON.stringify({ host, scopes }) + "\n");
      return EXIT_OK;
    }
    const width = Math.max(0, ...scopes.map((s) => String(s.name ?? "").length)) + 2;
    io.stdout.write(
      scopes
        .map(
          (s) =>
            `${io.style.bold(String(s.name ?? "?").padEnd(width))}${String(s.description ?? "")}`,
        )
        .join("\n") + "\n",
    );
    return EXIT_OK;
  },
};
