// `anna-app executa versions <ref>` (R172; E3, E7): the immutable snapshots, newest first.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG } from "../account/select-account.js";
import { fetchVersions } from "../publish/executa-versions.js";
import { findOwnExecuta, refArgument } from "../publish/executa-refs.js";
import { table } from "../publish/table.js";
import type { CommandModule } from "./registry.js";

const NAME = "executa versions";

const spec: CommandSpec = {
  name: NAME,
  summary: "List an executa's frozen versions, newest first",
  positionals: [{ name: "ref", description: "Its slug or tool_id", required: true }],
  flags: [
    ACCOUNT_FLAG,
    { name: "json", type: "boolean", description: "One JSON line: {host, tool_id, versions}" },
  ],
  examples: [
    "anna-app executa versions weather",
    "anna-app executa versions weather --account https://nexus.example.com --json",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const ref = refArgument(args, NAME);
    const { client, host, row } = await findOwnExecuta(args, io, NAME, ref, "read");
    const versions = await fetchVersions(client, row.id, ref);
    if (args.flags.json === true) {
      io.stdout.write(JSON.stringify({ host, tool_id: row.tool_id, versions }) + "\n");
      return EXIT_OK;
    }
    if (versions.length === 0) {
      io.stdout.write(
        `${row.tool_id} has no frozen version yet; run 'anna-app executa publish' in its folder\n`,
      );
      return EXIT_OK;
    }
    io.stdout.write(
      table(
        io,
        ["VERSION", "ID", "CONTENT", "IN A PUBLISHED APP", "FROZEN"],
        versions.map((v) => [
          v.version,
          String(v.id),
          String(v.content_hash).slice(0, 12),
          v.in_published_app ? "yes" : "no",
          (v.created_at ?? "").slice(0, 10),
        ]),
      ),
    );
    return EXIT_OK;
  },
};
