// `anna-app apps release <version>` (R169, real-world-cli.md §9.2 and 0.1.47 §C): make an
// existing version live (A8). The version must exist (or, with --allow-create, is published
// from this folder first), its bundle must be finalized, and the app must be APPROVED or
// PUBLISHED (compared upper-cased); any other status is exit 6 naming the step that is
// missing. A version that is already the live one is a no-op.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import {
  EXIT_INVALID_PROJECT,
  EXIT_OK,
  EXIT_REQUEST_FAILED,
  EXIT_STATUS_FORBIDS,
  ExitError,
  usageError,
} from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG } from "../account/select-account.js";
import type { NexusClient } from "../account/nexus-client.js";
import { appPublishOptions, writeWarnings } from "../publish/app-command.js";
import { APPS, type AppRow, getApp } from "../publish/app-resolve.js";
import { CWD_FLAG } from "../publish/cwd-flag.js";
import { projectApp } from "../publish/project-app.js";
import { DRY_RUN_FLAG, JSON_FLAG, SLUG_FLAG } from "../publish/publish-flags.js";
import { renderPlan, RequestPlan } from "../publish/request-plan.js";
import type { CommandModule } from "./registry.js";

const NAME = "apps release";

const spec: CommandSpec = {
  name: NAME,
  summary: "Make an existing app version live (the app must be approved)",
  description:
    "Publishes <version> to the App Store: installs converge on it. The app must have passed " +
    "review (APPROVED or PUBLISHED); otherwise exit 6 says what to do first. With " +
    "--allow-create a version the server does not have yet is published from this folder first " +
    "(as `anna-app apps publish`).",
  positionals: [
    { name: "version", description: "A version the server has, e.g. 1.2.0", required: true },
  ],
  flags: [
    {
      name: "allow-create",
      type: "boolean",
      description: "Publish the version from this folder if it is missing",
    },
    SLUG_FLAG,
    CWD_FLAG,
    DRY_RUN_FLAG,
    ACCOUNT_FLAG,
    JSON_FLAG,
  ],
  examples: [
    "anna-app apps release 1.0.0",
    "anna-app apps release 1.1.0 --dry-run",
    "anna-app apps release 1.1.0 --allow-create --json",
    "anna-app apps release 1.1.0 --slug focus-flow --account https://nexus.example.com",
    "anna-app apps release 1.1.0 --cwd apps/focus-flow",
  ],
};

interface VersionRow {
  id: number;
  version: string;
  is_latest?: boolean;
  published_at?: string | null;
  manifest?: { ui?: { bundle?: { entry?: string } } };
  /** Servers with release review (spec 8189): `pending`, `approved`, `rejected` or null. */
  release_review_state?: string | null;
  release_review_message?: string | null;
}

/** "in release review" / "release rejected: <reason>" for an unreleased version; else undefined. */
export function releaseReviewNote(v: VersionRow): string | undefined {
  if (v.published_at) return undefined;
  if (v.release_review_state === "pending") return "in release review";
  if (v.release_review_state === "rejected") {
    return `release rejected${v.release_review_message ? `: ${v.release_review_message}` : ""}`;
  }
  return undefined;
}

interface ReleaseAnswer {
  id?: number;
  version?: string;
  is_latest?: boolean;
  published_at?: string | null;
  release_review_state?: string | null;
}

export async function listVersions(client: NexusClient, app: AppRow): Promise<VersionRow[]> {
  const res = await client.get<unknown>(`${APPS}/${app.id}/versions`, {
    what: `listing versions of ${app.slug}`,
  });
  return Array.isArray(res.body) ? (res.body as VersionRow[]) : [];
}

/** What blocks going live, with the command that unblocks it; undefined when nothing does. */
export function releaseBlocker(app: AppRow): string | undefined {
  const raw = app.status ?? "(no status)";
  switch (raw.toUpperCase()) {
    case "APPROVED":
    case "PUBLISHED":
      return undefined;
    case "DRAFT":
    case "REJECTED":
      return `${app.slug} is ${raw}: submit it for review first (\`anna-app apps submit-review ${app.slug}\`)`;
    case "PENDING_REVIEW":
      return `${app.slug} is ${raw}: awaiting admin approval; release once it is APPROVED (\`anna-app apps status ${app.slug}\`)`;
    case "ARCHIVED":
      return `${app.slug} is ${raw}: unarchive it first (\`anna-app apps unarchive ${app.slug} --yes\`)`;
    default:
      return `${app.slug} is ${raw}: only an APPROVED or PUBLISHED app can release a version`;
  }
}

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const [version, extra] = args.positionals;
    if (version === undefined) throw usageError("give the version to release, e.g. 1.0.0", NAME);
    if (extra !== undefined) throw usageError(`unexpected argument '${extra}'`, NAME);
    const dryRun = args.flags["dry-run"] === true;
    const ctx = await projectApp(args, io, NAME);
    const { client, host } = ctx;
    let app = ctx.app;
    const plan = new RequestPlan(client, dryRun);
    let row = (await listVersions(client, app)).find((v) => v.version === version);
    if (row === undefined) {
      if (args.flags["allow-create"] !== true) {
        throw new ExitError(
          EXIT_REQUEST_FAILED,
          `${app.slug} has no version ${version} on ${host}; cut it (\`anna-app apps cut ${version}\`) or pass --allow-create to publish it from this folder`,
        );
      }
      const { publishApp } = await import("../publish/app-publish.js");
      const options = await appPublishOptions({ ...args, positionals: [] }, io, NAME);
      const created = await publishApp({ ...options, dryRun });
      writeWarnings(io, created.warnings);
      plan.steps.push(...created.plan);
      if (created.version !== version) {
        throw new ExitError(
          EXIT_INVALID_PROJECT,
          `--allow-create published ${created.version} from this folder, not ${version}; set "version": "${version}" in app.json`,
        );
      }
      if (!dryRun) {
        app = await getApp(client, app.id, app.slug);
        row = (await listVersions(client, app)).find((v) => v.version === version);
      }
    }
    if (row?.manifest?.ui?.bundle?.entry) {
      const b = await client.get<{ status?: string } | null>(
        `${APPS}/${app.id}/versions/${row.id}/bundle`,
        {
          what: `reading the bundle of ${version}`,
          allowStatuses: [404],
        },
      );
      if (b.status === 404 || b.body?.status !== "bundle_ready") {
        throw new ExitError(
          EXIT_INVALID_PROJECT,
          `${app.slug} ${version} has no finalized UI bundle; upload it with \`anna-app apps publish\` (or push and cut again)`,
        );
      }
    }
    const blocker = releaseBlocker(app);
    if (blocker !== undefined) throw new ExitError(EXIT_STATUS_FORBIDS, blocker);
    const live = row?.is_latest === true && (app.status ?? "").toUpperCase() === "PUBLISHED";
    let answer: ReleaseAnswer | undefined;
    if (!live) {
      const res = await plan.send<ReleaseAnswer>(
        { method: "POST", path: `${APPS}/${app.id}/versions/${row?.id ?? "{version_id}"}/publish` },
        `releasing ${app.slug} ${version}`,
      );
      answer = res?.body;
      if (res && !dryRun) app = await getApp(client, app.id, app.slug);
    }
    const pending = answer?.release_review_state === "pending" && !answer.is_latest;
    const out = {
      host,
      app_id: app.id,
      slug: app.slug,
      version,
      version_id: row?.id ?? null,
      already_live: live,
      is_latest: live ? true : pending ? (answer?.is_latest ?? false) : (answer?.is_latest ?? true),
      published_at: answer?.published_at ?? row?.published_at ?? null,
      release_review_state: answer?.release_review_state ?? null,
      status: app.status ?? null,
      dry_run: dryRun,
      plan: plan.steps,
    };
    const s = io.style;
    io.stdout.write(
      args.flags.json === true
        ? JSON.stringify(out) + "\n"
        : dryRun
          ? `dry run: release ${app.slug} ${version} on ${host} — nothing was changed; this would send:\n${renderPlan(plan.steps)}\n`
          : live
            ? `${s.green("✓")} ${app.slug} ${version} is already live; nothing to do\n`
            : pending
              ? `${s.green("✓")} ${app.slug} ${version} submitted for release review; it goes live once approved\n`
              : `${s.green("✓")} ${app.slug} ${version} is live (status ${app.status})\n`,
    );
    return EXIT_OK;
  },
};
