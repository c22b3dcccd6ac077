// `anna-app executa delete <ref> --yes --confirm <ref>` (R172; E3, E11). The server deletes it
// for good when nothing uses it, and archives it when a published app does (R9).
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG } from "../account/select-account.js";
import { DESTRUCTIVE_FLAGS, requireConfirmation } from "../publish/confirm.js";
import { findOwnExecuta, refArgument } from "../publish/executa-refs.js";
import type { CommandModule } from "./registry.js";

const NAME = "executa delete";

const spec: CommandSpec = {
  name: NAME,
  summary: "Delete an executa (archived instead when a published app uses it)",
  description: "Needs --yes --confirm <ref>. The folder's .anna/executa.json is not touched.",
  positionals: [{ name: "ref", description: "Its slug or tool_id", required: true }],
  flags: [
    ...DESTRUCTIVE_FLAGS,
    ACCOUNT_FLAG,
    {
      name: "json",
      type: "boolean",
      description: "One JSON line: {host, tool_id, deleted, archived}",
    },
  ],
  examples: [
    "anna-app executa delete weather --yes --confirm weather",
    "anna-app executa delete weather --yes --confirm weather --account https://nexus.example.com --json",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const ref = refArgument(args, NAME);
    requireConfirmation(args.flags, io.env, NAME, ref);
    const { client, host, row } = await findOwnExecuta(args, io, NAME, ref, "destructive");
    requireConfirmation(args.flags, io.env, NAME, ref, [row.tool_id]);
    const res = await client.request<{ archived?: boolean } | null>(
      "DELETE",
      `/api/v1/executas/my/tools/${row.id}`,
      {
        what: `deleting ${ref}`,
        allowStatuses: [204],
      },
    );
    const archived = res.body?.archived === true;
    io.stdout.write(
      args.flags.json === true
        ? JSON.stringify({ host, tool_id: row.tool_id, deleted: !archived, archived }) + "\n"
        : archived
          ? `${io.style.green("✓")} ${row.tool_id} is used by a published app, so it was archived (its frozen versions keep serving)\n`
          : `${io.style.green("✓")} deleted ${row.tool_id}\n`,
    );
    return EXIT_OK;
  },
};
