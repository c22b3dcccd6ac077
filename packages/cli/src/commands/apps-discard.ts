// `anna-app apps discard` (R169, real-world-cli.md §9.2): drop the app's working draft (A14 to
// report its revision, then A15). Versions already cut are kept.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG } from "../account/select-account.js";
import { APPS } from "../publish/app-resolve.js";
import { CWD_FLAG } from "../publish/cwd-flag.js";
import { projectApp } from "../publish/project-app.js";
import { DRY_RUN_FLAG, JSON_FLAG, SLUG_FLAG } from "../publish/publish-flags.js";
import { renderPlan, RequestPlan } from "../publish/request-plan.js";
import type { CommandModule } from "./registry.js";

const NAME = "apps discard";

const spec: CommandSpec = {
  name: NAME,
  summary: "Drop the app's working draft (versions already cut are kept)",
  flags: [SLUG_FLAG, CWD_FLAG, DRY_RUN_FLAG, ACCOUNT_FLAG, JSON_FLAG],
  examples: [
    "anna-app apps discard",
    "anna-app apps discard --dry-run",
    "anna-app apps discard --slug focus-flow --json",
    "anna-app apps discard --cwd apps/focus-flow --account https://nexus.example.com",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    if (args.positionals.length > 0)
      throw usageError(`unexpected argument '${args.positionals[0]}'`, NAME);
    const { client, host, app } = await projectApp(args, io, NAME);
    const dryRun = args.flags["dry-run"] === true;
    const base = `${APPS}/${app.id}/working`;
    const working = await client.get<{ revision?: number } | null>(base, {
      what: `reading the working draft of ${app.slug}`,
      allowStatuses: [404],
    });
    const revision = working.status === 404 ? null : (working.body?.revision ?? null);
    const plan = new RequestPlan(client, dryRun);
    if (working.status !== 404) {
      await plan.send(
        { method: "DELETE", path: base },
        `discarding the working draft of ${app.slug}`,
        {
          allowStatuses: [404],
        },
      );
    }
    const out = {
      host,
      app_id: app.id,
      slug: app.slug,
      revision,
      discarded: revision !== null && !dryRun,
      dry_run: dryRun,
      plan: plan.steps,
    };
    io.stdout.write(
      args.flags.json === true
        ? JSON.stringify(out) + "\n"
        : working.status === 404
          ? `${app.slug} has no working draft; nothing to discard\n`
          : dryRun
            ? `dry run: discard the working draft of ${app.slug} (revision ${revision}) on ${host} — nothing was changed; this would send:\n${renderPlan(plan.steps)}\n`
            : `${io.style.green("✓")} discarded the working draft of ${app.slug} (revision ${revision}); cut versions are kept\n`,
    );
    return EXIT_OK;
  },
};
