// `anna-app apps versions <slug>` (R170): every version the server has (A1, A6).
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG } from "../account/select-account.js";
import { findOwnApp, slugArgument } from "../publish/app-slug-arg.js";
import { JSON_FLAG } from "../publish/publish-flags.js";
import { table } from "../publish/table.js";
import { listVersions, releaseReviewNote } from "./apps-release.js";
import type { CommandModule } from "./registry.js";

const NAME = "apps versions";

const spec: CommandSpec = {
  name: NAME,
  summary: "List every version of one app on the server",
  positionals: [{ name: "slug", description: "The app", required: true }],
  flags: [ACCOUNT_FLAG, JSON_FLAG],
  examples: [
    "anna-app apps versions focus-flow",
    "anna-app apps versions focus-flow --json --account https://nexus.example.com",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const slug = slugArgument(args, NAME);
    const { client, host, app } = await findOwnApp(args, io, NAME, slug);
    const versions = await listVersions(client, app);
    if (args.flags.json === true) {
      io.stdout.write(JSON.stringify({ host, slug, versions }) + "\n");
    } else if (versions.length === 0) {
      io.stdout.write(
        `${slug} has no versions yet; \`anna-app apps cut <version>\` or \`anna-app apps publish\` makes one\n`,
      );
    } else {
      io.stdout.write(
        table(
          io,
          ["VERSION", "ID", "LATEST", "PUBLISHED", "CREATED"],
          versions.map((v) => [
            v.version,
            String(v.id),
            v.is_latest ? "yes" : "",
            v.published_at ?? releaseReviewNote(v) ?? "",
            (v as { created_at?: string }).created_at ?? "",
          ]),
        ),
      );
    }
    return EXIT_OK;
  },
};
