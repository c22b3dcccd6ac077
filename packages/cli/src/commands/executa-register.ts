// `anna-app executa register --tool-id <id> [--slug] [--name]` (real-world-cli.md §9.5, D3):
// registers a dev app for a tool id so `executa dev` can mint sessions for it. Like the other dev
// flows it uses the saved credentials file only (ANNA_APP_HOST/ANNA_APP_PAT are ignored) and
// sends the PAT in the body.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, EXIT_RUNTIME, EXIT_USAGE, ExitError, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { NexusRequestError } from "../account/nexus-error.js";
import { ACCOUNT_FLAG, accountFlag, selectAccount } from "../account/select-account.js";
import { EXECUTA_REGISTER_PATH } from "../real-storage/dev-storage-tokens.js";
import type { CommandModule } from "./registry.js";

const NAME = "executa register";
const PATH = EXECUTA_REGISTER_PATH;

const spec: CommandSpec = {
  name: NAME,
  summary: "Register a dev app for a tool_id so executa dev can use real server services",
  flags: [
    {
      name: "tool-id",
      type: "string",
      value: "<id>",
      description: "The executa's tool_id (required)",
    },
    {
      name: "slug",
      type: "string",
      value: "<slug>",
      description: "The dev app's slug (default: chosen by the server)",
    },
    { name: "name", type: "string", value: "<name>", description: "The dev app's display name" },
    ACCOUNT_FLAG,
    { name: "json", type: "boolean", description: "One JSON line with the server's answer" },
  ],
  examples: [
    "anna-app executa register --tool-id tool-ada-weather-x1y2z3",
    "anna-app executa register --tool-id tool-ada-weather-x1y2z3 --slug weather-dev --name 'Weather (dev)' --account https://nexus.example.com --json",
  ],
};

interface Registered {
  created?: boolean;
  slug?: string;
  app_id?: unknown;
  kind?: string;
  tool_id?: string;
  name?: string;
}

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    if (args.positionals.length > 0)
      throw usageError(`unexpected argument '${args.positionals[0]}'`, NAME);
    const toolId = args.flags["tool-id"];
    if (typeof toolId !== "string") throw usageError("give --tool-id <id>", NAME);
    const env = { ...io.env };
    delete env.ANNA_APP_HOST;
    delete env.ANNA_APP_PAT;
    const { client, host, saved } = await selectAccount(env, {
      command: NAME,
      account: accountFlag(args.flags),
    });
    let body: Registered;
    try {
      body = (
        await client.post<Registered>(PATH, {
          auth: false,
          what: `registering ${toolId}`,
          body: {
            pat: saved?.pat,
            tool_id: toolId,
            slug: args.flags.slug as string | undefined,
            name: args.flags.name as string | undefined,
          },
        })
      ).body;
    } catch (e) {
      if (e instanceof NexusRequestError && e.status === 404) {
        throw new ExitError(
          EXIT_USAGE,
          `your nexus (${host}) does not expose POST ${PATH}; upgrade it to register dev executas`,
        );
      }
      if (e instanceof NexusRequestError && e.status !== undefined) {
        throw new ExitError(EXIT_RUNTIME, `HTTP ${e.status}: ${e.message}`, { cause: e });
      }
      throw e;
    }
    if (args.flags.json === true) {
      io.stdout.write(JSON.stringify({ host, ...body }) + "\n");
      return EXIT_OK;
    }
    io.stdout.write(
      `${io.style.green("✓")} ${body.created ? "registered" : "exists"}\n` +
        `  slug     ${String(body.slug)}\n  app_id   ${String(body.app_id)}\n  kind     ${String(body.kind)}\n` +
        `  tool_id  ${String(body.tool_id)}\n  name     ${String(body.name)}\n`,
    );
    return EXIT_OK;
  },
};
