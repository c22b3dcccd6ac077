// `anna-app executa status <ref>` (R172; E3, E4, E7): one executa's server state.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG } from "../account/select-account.js";
import { fetchVersions } from "../publish/executa-versions.js";
import { findOwnExecuta, refArgument } from "../publish/executa-refs.js";
import type { CommandModule } from "./registry.js";

const NAME = "executa status";

const spec: CommandSpec = {
  name: NAME,
  summary: "Show one executa's state on the server: visibility, latest version",
  positionals: [{ name: "ref", description: "Its slug or tool_id", required: true }],
  flags: [
    ACCOUNT_FLAG,
    { name: "json", type: "boolean", description: "One JSON line: {host, executa, versions}" },
  ],
  examples: [
    "anna-app executa status weather",
    "anna-app executa status tool-ada-weather-x1y2z3 --account https://nexus.example.com --json",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const ref = refArgument(args, NAME);
    const { client, host, row } = await findOwnExecuta(args, io, NAME, ref, "read");
    const kind = row.executa_type === "skill" ? "skills" : "tools";
    const detail = (
      await client.get<Record<string, unknown>>(`/api/v1/executas/my/${kind}/${row.id}/detail`, {
        what: `reading ${ref}`,
      })
    ).body;
    const versions = await fetchVersions(client, row.id, ref);
    if (args.flags.json === true) {
      io.stdout.write(JSON.stringify({ host, executa: detail, versions }) + "\n");
      return EXIT_OK;
    }
    const latest = versions[0];
    io.stdout.write(
      `${io.style.bold(String(detail.tool_id))}\n` +
        `  name        ${String(detail.name)}\n` +
        `  type        ${String(detail.executa_type)}\n` +
        `  visibility  ${String(detail.visibility)}${detail.archived === true ? " (archived)" : ""}\n` +
        `  latest      ${latest ? `${latest.version} (${versions.length} version${versions.length === 1 ? "" : "s"})` : "none frozen yet"}\n` +
        `  host        ${host}\n`,
    );
    return EXIT_OK;
  },
};
