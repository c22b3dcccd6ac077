// `anna-app apps grants <slug>` (R170): the scopes and quotas granted to the app (A24, which
// lives at /api/v1/apps/{id}/grants, not under /developer). Printed as the server sends it.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { colorJson } from "../cli/style.js";
import { ACCOUNT_FLAG } from "../account/select-account.js";
import { findOwnApp, slugArgument } from "../publish/app-slug-arg.js";
import { JSON_FLAG } from "../publish/publish-flags.js";
import type { CommandModule } from "./registry.js";

const NAME = "apps grants";

const spec: CommandSpec = {
  name: NAME,
  summary: "Show the scopes and quotas granted to one app",
  positionals: [{ name: "slug", description: "The app", required: true }],
  flags: [ACCOUNT_FLAG, JSON_FLAG],
  examples: [
    "anna-app apps grants focus-flow",
    "anna-app apps grants focus-flow --json --account https://nexus.example.com",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const slug = slugArgument(args, NAME);
    const { client, host, app } = await findOwnApp(args, io, NAME, slug);
    const res = await client.get<unknown>(`/api/v1/apps/${app.id}/grants`, {
      what: `reading the grants of ${slug}`,
      allowStatuses: [404],
    });
    const grants = res.status === 404 ? null : res.body;
    io.stdout.write(
      args.flags.json === true
        ? JSON.stringify({ host, slug, grants }) + "\n"
        : grants === null
          ? `${host} has no grants data for ${slug}\n`
          : colorJson(grants, io.style) + "\n",
    );
    return EXIT_OK;
  },
};
