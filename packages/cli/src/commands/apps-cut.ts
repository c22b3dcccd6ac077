// `anna-app apps cut <version>` (R169, real-world-cli.md §9.2): the working draft becomes an
// immutable version and the bundled executas it uses are frozen (A16). A version cut before is
// exit 9; a draft the server cannot cut (invalid, missing bundle) is exit 4. Before the cut, the
// binary_artifacts of bundled executas go up (cut-binaries.ts), as `apps publish` uploads them.
import { isAppVersion } from "@anna-ai/app-schema";
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import {
  EXIT_ALREADY_CUT,
  EXIT_INVALID_PROJECT,
  EXIT_OK,
  ExitError,
  usageError,
} from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { NexusRequestError } from "../account/nexus-error.js";
import { ACCOUNT_FLAG } from "../account/select-account.js";
import { APPS } from "../publish/app-resolve.js";
import { CWD_FLAG } from "../publish/cwd-flag.js";
import { bumpVersion } from "../publish/executa-project.js";
import { uploadCutBinaries } from "../publish/cut-binaries.js";
import { markCut } from "../publish/executas-lock.js";
import { projectApp } from "../publish/project-app.js";
import { DRY_RUN_FLAG, JSON_FLAG, SLUG_FLAG } from "../publish/publish-flags.js";
import { renderPlan, RequestPlan } from "../publish/request-plan.js";
import { progressPrinter } from "./executa-upload-binaries.js";
import type { CommandModule } from "./registry.js";

const NAME = "apps cut";

const spec: CommandSpec = {
  name: NAME,
  summary: "Freeze the app's working draft into an immutable version",
  description:
    "Snapshots what the last `anna-app apps push` uploaded as <version> and freezes the " +
    "bundled executa versions it uses. Exit 9 when that version was already cut, 4 when the " +
    "draft cannot be cut (fix it and push again).",
  positionals: [{ name: "version", description: "The new version, e.g. 1.2.0", required: true }],
  flags: [
    {
      name: "changelog",
      type: "string",
      value: "<text>",
      description: "What changed in this version",
    },
    SLUG_FLAG,
    CWD_FLAG,
    DRY_RUN_FLAG,
    ACCOUNT_FLAG,
    JSON_FLAG,
  ],
  examples: [
    "anna-app apps cut 1.0.0",
    'anna-app apps cut 1.1.0 --changelog "History view"',
    "anna-app apps cut 1.1.0 --dry-run",
    "anna-app apps cut 1.1.0 --slug focus-flow --json",
    "anna-app apps cut 1.1.0 --cwd apps/focus-flow --account https://nexus.example.com",
  ],
};

interface CutAnswer {
  version_id?: number;
  version?: string;
  frozen_executas?: { tool_id: string; executa_version_id: number; version?: string }[];
  bundle?: { object_prefix?: string } | null;
}

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const [version, extra] = args.positionals;
    if (version === undefined) throw usageError("give the version to cut, e.g. 1.0.0", NAME);
    if (extra !== undefined) throw usageError(`unexpected argument '${extra}'`, NAME);
    if (!isAppVersion(version)) {
      throw usageError(`'${version}' is not a version: use X.Y.Z[-prerelease], e.g. 1.0.0`, NAME);
    }
    const { client, host, dir, app } = await projectApp(args, io, NAME);
    const dryRun = args.flags["dry-run"] === true;
    const plan = new RequestPlan(client, dryRun);
    const changelog = typeof args.flags.changelog === "string" ? args.flags.changelog : undefined;
    const binaries = await uploadCutBinaries({
      client,
      host,
      dir,
      dryRun,
      plan: plan.steps,
      ...(args.flags.json === true ? {} : { onProgress: progressPrinter(io) }),
    });
    let res;
    try {
      res = await plan.send<CutAnswer>(
        { method: "POST", path: `${APPS}/${app.id}/working/cut`, body: { version, changelog } },
        `cutting ${app.slug} ${version}`,
      );
    } catch (e) {
      if (e instanceof NexusRequestError && e.status === 409) {
        throw new ExitError(
          EXIT_ALREADY_CUT,
          `version ${version} of ${app.slug} was already cut; cut the next one (e.g. \`anna-app apps cut ${bumpVersion(version, "patch")}\`) or release it (\`anna-app apps release ${version}\`)`,
          { cause: e },
        );
      }
      if (e instanceof NexusRequestError && (e.status === 400 || e.status === 422)) {
        const why = e.message.replace(/^.*?failed \([^)]*\): /, "");
        throw new ExitError(
          EXIT_INVALID_PROJECT,
          `cannot cut ${app.slug} ${version}: ${why} — fix the working draft and \`anna-app apps push\` again`,
          { cause: e },
        );
      }
      throw e;
    }
    const frozen = res?.body.frozen_executas ?? [];
    if (res && !dryRun)
      await markCut(
        dir,
        host,
        frozen.map((f) => f.tool_id),
      );
    const out = {
      host,
      app_id: app.id,
      slug: app.slug,
      version,
      version_id: res?.body.version_id ?? null,
      frozen_executas: frozen,
      binaries,
      bundle: res?.body.bundle ?? null,
      dry_run: dryRun,
      plan: plan.steps,
    };
    if (args.flags.json === true) io.stdout.write(JSON.stringify(out) + "\n");
    else if (dryRun) {
      io.stdout.write(
        `dry run: cut ${app.slug} ${version} on ${host} — nothing was changed; this would send:\n${renderPlan(plan.steps)}\n`,
      );
    } else {
      io.stdout.write(
        [
          `${io.style.green("✓")} cut ${app.slug} ${version} (version id ${out.version_id})`,
          ...binaries.map(
            (b) =>
              `  binaries    ${b.tool_id}: ${b.binaries?.platforms.map((x) => `${x.platform} ${x.status}`).join(", ") ?? "none"}`,
          ),
          ...frozen.map((f) => `  froze       ${f.tool_id}${f.version ? ` ${f.version}` : ""}`),
          `  next        anna-app apps submit-review ${app.slug}; once approved: anna-app apps release ${version}`,
        ].join("\n") + "\n",
      );
    }
    return EXIT_OK;
  },
};
