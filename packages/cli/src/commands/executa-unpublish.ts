// `anna-app executa unpublish <ref> --yes --confirm <ref>` (R172; E3, E10): visibility → private.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG } from "../account/select-account.js";
import { DESTRUCTIVE_FLAGS, requireConfirmation } from "../publish/confirm.js";
import { findOwnExecuta, refArgument } from "../publish/executa-refs.js";
import type { CommandModule } from "./registry.js";

const NAME = "executa unpublish";

const spec: CommandSpec = {
  name: NAME,
  summary: "Make an executa private again (hidden from the Hub and from new app installs)",
  description: "Its versions are kept; publish again to promote it. Needs --yes --confirm <ref>.",
  positionals: [{ name: "ref", description: "Its slug or tool_id", required: true }],
  flags: [
    ...DESTRUCTIVE_FLAGS,
    ACCOUNT_FLAG,
    { name: "json", type: "boolean", description: "One JSON line: {host, tool_id, visibility}" },
  ],
  examples: [
    "anna-app executa unpublish weather --yes --confirm weather",
    "anna-app executa unpublish weather --yes --confirm weather --account https://nexus.example.com --json",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const ref = refArgument(args, NAME);
    requireConfirmation(args.flags, io.env, NAME, ref);
    const { client, host, row } = await findOwnExecuta(args, io, NAME, ref, "destructive");
    requireConfirmation(args.flags, io.env, NAME, ref, [row.tool_id]);
    const res = await client.post<{ visibility?: string }>(
      `/api/v1/executas/my/tools/${row.id}/unpublish`,
      {
        what: `unpublishing ${ref}`,
      },
    );
    const visibility = res.body?.visibility ?? "private";
    io.stdout.write(
      args.flags.json === true
        ? JSON.stringify({ host, tool_id: row.tool_id, visibility }) + "\n"
        : `${io.style.green("✓")} ${row.tool_id} is now ${visibility}\n`,
    );
    return EXIT_OK;
  },
};
