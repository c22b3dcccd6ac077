// `anna-app executa trusted-publisher add|list|remove` (real-world-cli.md §A, B6–B8): which
// GitHub Actions workflows may upload this tool's binaries with `upload-binaries --oidc`.
// `add` checks `--repository` is owner/repo and `remove` that the id is a positive integer
// before any request (exit 2 otherwise).
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG, accountFlag, selectAccount } from "../account/select-account.js";
import { DIR_FLAG, dirOf, TOOL_ID_FLAG } from "../publish/dir-flag.js";
import { toolIdFor } from "../publish/identity-cache.js";
import { table } from "../publish/table.js";
import type { CommandModule } from "./registry.js";

const COMMON = [
  DIR_FLAG,
  TOOL_ID_FLAG,
  ACCOUNT_FLAG,
  { name: "json", type: "boolean" as const, description: "One JSON line with the server's answer" },
];
const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

interface Publisher {
  id: number;
  repository: string;
  workflow: string;
  environment?: string | null;
  last_used_at?: string | null;
}

const path = (toolId: string) =>
  `/api/v1/anna-apps/dev/executas/${encodeURIComponent(toolId)}/trusted-publishers`;

async function target(args: ParsedArgs, io: CliIo, name: string) {
  const { client, host } = await selectAccount(io.env, {
    command: name,
    account: accountFlag(args.flags),
  });
  const toolId = await toolIdFor(
    dirOf(args.flags, io),
    host,
    args.flags["tool-id"] as string | undefined,
  );
  return { client, host, toolId };
}

const addSpec: CommandSpec = {
  name: "executa trusted-publisher add",
  summary: "Let a GitHub Actions workflow upload this tool's binaries without a PAT (OIDC)",
  flags: [
    {
      name: "repository",
      type: "string",
      value: "<owner/repo>",
      description: "The GitHub repository (required)",
    },
    {
      name: "workflow",
      type: "string",
      value: "<file>",
      description: "The workflow file under .github/workflows, e.g. publish.yml (required)",
    },
    {
      name: "environment",
      type: "string",
      value: "<name>",
      description: "Also require this GitHub Environment (default: any)",
    },
    ...COMMON,
  ],
  examples: [
    "anna-app executa trusted-publisher add --repository acme/grep --workflow publish.yml",
    "anna-app executa trusted-publisher add --repository acme/grep --workflow publish.yml --environment production --json",
    "anna-app executa trusted-publisher add --repository acme/grep --workflow publish.yml --dir executas/grep --account https://nexus.example.com",
    "anna-app executa trusted-publisher add --repository acme/grep --workflow publish.yml --tool-id tool-acme-grep-x1y2z3",
  ],
};

const listSpec: CommandSpec = {
  name: "executa trusted-publisher list",
  summary: "List the workflows that may upload this tool's binaries, and when each last did",
  flags: COMMON,
  examples: [
    "anna-app executa trusted-publisher list",
    "anna-app executa trusted-publisher list --tool-id tool-acme-grep-x1y2z3 --json",
    "anna-app executa trusted-publisher list --dir executas/grep --account https://nexus.example.com",
  ],
};

const removeSpec: CommandSpec = {
  name: "executa trusted-publisher remove",
  summary: "Remove a trusted publisher by its id (see trusted-publisher list)",
  positionals: [
    { name: "publisher-id", description: "The id from trusted-publisher list", required: true },
  ],
  flags: COMMON,
  examples: [
    "anna-app executa trusted-publisher remove 3",
    "anna-app executa trusted-publisher remove 3 --tool-id tool-acme-grep-x1y2z3 --json",
    "anna-app executa trusted-publisher remove 3 --dir executas/grep --account https://nexus.example.com",
  ],
};

const describe = (p: Publisher) =>
  `${p.id}  ${p.repository}  ${p.workflow}  environment ${p.environment ?? "any"}  last used ${p.last_used_at ?? "never"}`;

export const addCommand: CommandModule = {
  spec: addSpec,
  run: async (args, io) => {
    const name = addSpec.name;
    if (args.positionals.length > 0)
      throw usageError(`unexpected argument '${args.positionals[0]}'`, name);
    const repository = args.flags.repository;
    const workflow = args.flags.workflow;
    if (typeof repository !== "string" || !REPOSITORY.test(repository)) {
      throw usageError("--repository must be owner/repo, e.g. acme/grep", name);
    }
    if (typeof workflow !== "string" || workflow === "")
      throw usageError("give --workflow <file>, e.g. publish.yml", name);
    const environment = args.flags.environment as string | undefined;
    const { client, toolId } = await target(args, io, name);
    const res = await client.post<Publisher>(path(toolId), {
      body: { repository, workflow, environment },
      what: `adding a trusted publisher to ${toolId}`,
    });
    io.stdout.write(
      args.flags.json === true
        ? JSON.stringify(res.body) + "\n"
        : `${io.style.green("✓")} trusted publisher added to ${toolId}\n  ${describe(res.body)}\n`,
    );
    return EXIT_OK;
  },
};

export const listCommand: CommandModule = {
  spec: listSpec,
  run: async (args, io) => {
    const name = listSpec.name;
    if (args.positionals.length > 0)
      throw usageError(`unexpected argument '${args.positionals[0]}'`, name);
    const { client, toolId } = await target(args, io, name);
    const res = await client.get<{ trusted_publishers: Publisher[] }>(path(toolId), {
      what: `listing the trusted publishers of ${toolId}`,
    });
    const rows = res.body.trusted_publishers;
    if (args.flags.json === true) io.stdout.write(JSON.stringify(res.body) + "\n");
    else if (rows.length === 0)
      io.stdout.write(
        `no trusted publishers for ${toolId}; add one with \`anna-app executa trusted-publisher add\`\n`,
      );
    else
      io.stdout.write(
        table(
          io,
          ["ID", "REPOSITORY", "WORKFLOW", "ENVIRONMENT", "LAST USED"],
          rows.map((p) => [
            String(p.id),
            p.repository,
            p.workflow,
            p.environment ?? "any",
            p.last_used_at ?? "never",
          ]),
        ),
      );
    return EXIT_OK;
  },
};

export const removeCommand: CommandModule = {
  spec: removeSpec,
  run: async (args, io) => {
    const name = removeSpec.name;
    const raw = args.positionals[0];
    if (raw === undefined || !/^[1-9][0-9]{0,11}$/.test(raw)) {
      throw usageError(`the publisher id must be a positive integer (got '${raw ?? ""}')`, name);
    }
    const { client, toolId } = await target(args, io, name);
    await client.delete(`${path(toolId)}/${raw}`, {
      what: `removing trusted publisher ${raw} of ${toolId}`,
    });
    io.stdout.write(
      args.flags.json === true
        ? JSON.stringify({ deleted: true, id: Number(raw), tool_id: toolId }) + "\n"
        : `${io.style.green("✓")} trusted publisher ${raw} removed from ${toolId}\n`,
    );
    return EXIT_OK;
  },
};
