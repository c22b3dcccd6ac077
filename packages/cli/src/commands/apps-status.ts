// `anna-app apps status <slug>` (R170, real-world-cli.md §9.5): the app's server state (A1,
// A3), its latest version (A6: the first `is_latest`, else the first) and, beyond the
// published CLI, its working draft revision (A14) — the value `apps push --if-match` takes — and
// the versions waiting in (or rejected by) release review on servers that review releases.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG } from "../account/select-account.js";
import { APPS, getApp } from "../publish/app-resolve.js";
import { findOwnApp, slugArgument } from "../publish/app-slug-arg.js";
import { JSON_FLAG } from "../publish/publish-flags.js";
import { listVersions, releaseReviewNote } from "./apps-release.js";
import type { CommandModule } from "./registry.js";

const NAME = "apps status";

const spec: CommandSpec = {
  name: NAME,
  summary: "Show one app's server state: status, latest version, working draft",
  positionals: [{ name: "slug", description: "The app", required: true }],
  flags: [ACCOUNT_FLAG, JSON_FLAG],
  examples: [
    "anna-app apps status focus-flow",
    "anna-app apps status focus-flow --json --account https://nexus.example.com",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const slug = slugArgument(args, NAME);
    const { client, host, app: row } = await findOwnApp(args, io, NAME, slug);
    const app = await getApp(client, row.id, slug);
    const versions = await listVersions(client, app);
    const latest = versions.find((v) => v.is_latest === true) ?? versions[0];
    const w = await client.get<{ revision?: number; dirty_vs_latest_cut?: boolean } | null>(
      `${APPS}/${app.id}/working`,
      {
        what: `reading the working draft of ${slug}`,
        allowStatuses: [404],
      },
    );
    const working =
      w.status === 404 || !w.body
        ? null
        : {
            revision: w.body.revision ?? null,
            dirty_vs_latest_cut: w.body.dirty_vs_latest_cut ?? null,
          };
    if (args.flags.json === true) {
      io.stdout.write(
        JSON.stringify({
          host,
          app,
          latest_version: latest ?? null,
          versions: versions.length,
          release_reviews: versions
            .filter((v) => releaseReviewNote(v) !== undefined)
            .map((v) => ({
              version: v.version,
              release_review_state: v.release_review_state,
              release_review_message: v.release_review_message ?? null,
            })),
          working,
        }) + "\n",
      );
      return EXIT_OK;
    }
    const lines = [
      `${io.style.bold(app.slug)}  ${app.name ?? ""}`,
      `  status         ${app.status ?? "?"}`,
      `  latest         ${latest ? `${latest.version}${latest.published_at ? ` (published ${latest.published_at})` : ""}` : "no version yet"}`,
      `  versions       ${versions.length}`,
      `  working draft  ${working ? `revision ${working.revision}${working.dirty_vs_latest_cut ? " (changed since the last cut)" : ""}` : "none"}`,
    ];
    if (typeof app.review_message === "string" && app.review_message !== "") {
      lines.push(`  review         ${app.review_message}`);
    }
    for (const v of versions) {
      const note = releaseReviewNote(v);
      if (note !== undefined) lines.push(`  ${v.version.padEnd(14)} ${note}`);
    }
    io.stdout.write(lines.join("\n") + "\n");
    return EXIT_OK;
  },
};
