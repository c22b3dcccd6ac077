// `anna-app executa yank <slug>@<version> --yes --confirm <slug>` (R172; E3, E7, E9): hard-deletes
// one frozen version. The server refuses a version a published app has frozen.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, EXIT_REQUEST_FAILED, ExitError, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG } from "../account/select-account.js";
import { DESTRUCTIVE_FLAGS, requireConfirmation } from "../publish/confirm.js";
import { findOwnExecuta } from "../publish/executa-refs.js";
import { fetchVersions } from "../publish/executa-versions.js";
import type { CommandModule } from "./registry.js";

const NAME = "executa yank";

const spec: CommandSpec = {
  name: NAME,
  summary: "Delete one frozen version of an executa (<slug>@<version>)",
  description:
    "The version is gone for good; apps that froze it in a published version keep it (the " +
    "server refuses). Needs --yes --confirm <slug>.",
  positionals: [{ name: "ref@version", description: "e.g. weather@1.2.0", required: true }],
  flags: [
    ...DESTRUCTIVE_FLAGS,
    ACCOUNT_FLAG,
    { name: "json", type: "boolean", description: "One JSON line: {host, tool_id, yanked}" },
  ],
  examples: [
    "anna-app executa yank weather@1.2.0 --yes --confirm weather",
    "anna-app executa yank weather@1.2.0 --yes --confirm weather --account https://nexus.example.com --json",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const [target, extra] = args.positionals;
    const at = target?.lastIndexOf("@") ?? -1;
    if (target === undefined || at <= 0 || at === target.length - 1) {
      throw usageError("give <slug>@<version>, e.g. executa yank weather@1.2.0", NAME);
    }
    if (extra !== undefined) throw usageError(`unexpected argument '${extra}'`, NAME);
    const ref = target.slice(0, at);
    const version = target.slice(at + 1);
    requireConfirmation(args.flags, io.env, NAME, ref);
    const { client, host, row } = await findOwnExecuta(args, io, NAME, ref, "destructive");
    requireConfirmation(args.flags, io.env, NAME, ref, [row.tool_id]);
    const versions = await fetchVersions(client, row.id, ref);
    const v = versions.find((x) => x.version === version);
    if (!v) {
      throw new ExitError(
        EXIT_REQUEST_FAILED,
        `${row.tool_id} has no version ${version} (has: ${versions.map((x) => x.version).join(", ") || "none"}); see 'anna-app executa versions ${ref}'`,
      );
    }
    await client.request("DELETE", `/api/v1/executas/my/tools/${row.id}/versions/${v.id}`, {
      what: `yanking ${ref}@${version}`,
    });
    io.stdout.write(
      args.flags.json === true
        ? JSON.stringify({ host, tool_id: row.tool_id, yanked: version }) + "\n"
        : `${io.style.green("✓")} yanked ${row.tool_id}@${version}\n`,
    );
    return EXIT_OK;
  },
};
