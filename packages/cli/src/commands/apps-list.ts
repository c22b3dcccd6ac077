// `anna-app apps list` (R170): the apps you author, with their lifecycle status (A1).
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG, accountFlag, selectAccount } from "../account/select-account.js";
import { APPS, type AppRow } from "../publish/app-resolve.js";
import { JSON_FLAG } from "../publish/publish-flags.js";
import { table } from "../publish/table.js";
import type { CommandModule } from "./registry.js";

const NAME = "apps list";

const spec: CommandSpec = {
  name: NAME,
  summary: "List the apps you author and their status",
  flags: [ACCOUNT_FLAG, JSON_FLAG],
  examples: ["anna-app apps list", "anna-app apps list --json --account https://nexus.example.com"],
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
    const res = await client.get<unknown>(APPS, { what: "listing your apps" });
    const apps = (Array.isArray(res.body) ? res.body : []) as AppRow[];
    if (args.flags.json === true) io.stdout.write(JSON.stringify({ host, apps }) + "\n");
    else if (apps.length === 0) {
      io.stdout.write(
        `no apps of yours on ${host} yet; create one with \`anna-app apps push\` in an app folder\n`,
      );
    } else {
      io.stdout.write(
        table(
          io,
          ["SLUG", "NAME", "STATUS", "UPDATED"],
          apps.map((a) => [a.slug, a.name ?? "", a.status ?? "", a.updated_at ?? ""]),
        ),
      );
    }
    return EXIT_OK;
  },
};
