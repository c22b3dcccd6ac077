// `anna-app apps submit-review [slug]` (R169, real-world-cli.md §9.4): DRAFT or REJECTED →
// PENDING_REVIEW (A20), then the app read back (A3). The server runs its pre-review checks at
// submit; a refusal names the state and what to fix.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG } from "../account/select-account.js";
import { APPS, getApp } from "../publish/app-resolve.js";
import { CWD_FLAG } from "../publish/cwd-flag.js";
import { projectApp } from "../publish/project-app.js";
import { JSON_FLAG } from "../publish/publish-flags.js";
import type { CommandModule } from "./registry.js";

const NAME = "apps submit-review";

const spec: CommandSpec = {
  name: NAME,
  summary: "Submit the app for review (DRAFT or REJECTED → PENDING_REVIEW)",
  description: "Without a slug, the app of this folder (.anna/app.json, then app.json).",
  positionals: [{ name: "slug", description: "The app (default: this folder's)" }],
  flags: [CWD_FLAG, ACCOUNT_FLAG, JSON_FLAG],
  examples: [
    "anna-app apps submit-review",
    "anna-app apps submit-review focus-flow --json",
    "anna-app apps submit-review --cwd apps/focus-flow --account https://nexus.example.com",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const [slug, extra] = args.positionals;
    if (extra !== undefined) throw usageError(`unexpected argument '${extra}'`, NAME);
    const { client, host, app } = await projectApp(args, io, NAME, slug);
    const res = await client.post<{ status?: string; pre_review?: unknown } | null>(
      `${APPS}/${app.id}/submit-review`,
      { what: `submitting ${app.slug} for review` },
    );
    const after = await getApp(client, app.id, app.slug);
    const status = res.body?.status ?? after.status ?? null;
    io.stdout.write(
      args.flags.json === true
        ? JSON.stringify({
            host,
            app_id: app.id,
            slug: app.slug,
            status,
            ...(res.body?.pre_review === undefined ? {} : { pre_review: res.body.pre_review }),
          }) + "\n"
        : `${io.style.green("✓")} ${app.slug} submitted for review (status ${status}); see \`anna-app apps status ${app.slug}\`\n`,
    );
    return EXIT_OK;
  },
};
