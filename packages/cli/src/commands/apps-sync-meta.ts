// `anna-app apps sync-meta` (R170, real-world-cli.md §9.5 and 0.1.47 §C): push the mutable
// store listing (name, tagline, description, category, URLs, screenshots, logo) from app.json
// and manifest.json without a new version. A listing over its limits is exit 4 before any
// request.
import path from "node:path";
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_INVALID_PROJECT, EXIT_OK, ExitError, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG, accountFlag, selectAccount } from "../account/select-account.js";
import { readAppIdentity } from "../publish/app-identity.js";
import { getApp, requireAppBySlug } from "../publish/app-resolve.js";
import { cwdOf, CWD_FLAG } from "../publish/cwd-flag.js";
import { readJsonObject } from "../publish/json-file.js";
import { planListing, sendListing } from "../publish/listing-sync.js";
import { DRY_RUN_FLAG, JSON_FLAG } from "../publish/publish-flags.js";
import { renderPlan, RequestPlan } from "../publish/request-plan.js";
import type { CommandModule } from "./registry.js";

const NAME = "apps sync-meta";

export const MANIFEST_FLAG = {
  name: "manifest",
  type: "string",
  value: "<path>",
  description: "The manifest (default: manifest.json in the project folder)",
} as const;

const spec: CommandSpec = {
  name: NAME,
  summary: "Update the app's store listing from app.json and manifest.json",
  description:
    "Sends name, category, tagline, description, cover/homepage/support/privacy URLs, " +
    'screenshots (local files are uploaded) and the logo. An explicit null or "" clears a ' +
    "URL; an absent key leaves it as it is. No new version is created.",
  flags: [
    MANIFEST_FLAG,
    {
      name: "logo",
      type: "string",
      value: "<path>",
      description: "Upload this logo file (overrides logo_file)",
    },
    CWD_FLAG,
    DRY_RUN_FLAG,
    ACCOUNT_FLAG,
    JSON_FLAG,
  ],
  examples: [
    "anna-app apps sync-meta",
    "anna-app apps sync-meta --dry-run",
    "anna-app apps sync-meta --logo assets/logo.png --json",
    "anna-app apps sync-meta --cwd apps/focus-flow --manifest apps/focus-flow/manifest.json --account https://nexus.example.com",
  ],
};

/** app.json and the manifest of a project folder, and the slug they name. */
export async function projectDocs(dir: string, manifestFlag: unknown) {
  const manifestFile = path.resolve(
    dir,
    typeof manifestFlag === "string" ? manifestFlag : "manifest.json",
  );
  const manifest = await readJsonObject(manifestFile);
  if (manifest === undefined) {
    throw new ExitError(
      EXIT_INVALID_PROJECT,
      `${manifestFile}: not found or not a JSON object; run this in an app folder (or pass --cwd <dir>)`,
    );
  }
  const appJsonFile = path.join(dir, "app.json");
  const appJson = await readJsonObject(appJsonFile);
  const slug = appJson?.slug ?? manifest.slug;
  if (typeof slug !== "string") {
    throw new ExitError(
      EXIT_INVALID_PROJECT,
      `${appJson ? appJsonFile : manifestFile}: add "slug" (e.g. "focus-flow")`,
    );
  }
  return { manifestFile, manifest, appJsonFile, appJson, slug };
}

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    if (args.positionals.length > 0)
      throw usageError(`unexpected argument '${args.positionals[0]}'`, NAME);
    const dir = cwdOf(args.flags, io);
    const docs = await projectDocs(dir, args.flags.manifest);
    const listing = await planListing({
      dir,
      appJson: docs.appJson,
      manifest: docs.manifest,
      slug: docs.slug,
      logoFile:
        typeof args.flags.logo === "string" ? path.resolve(io.cwd, args.flags.logo) : undefined,
    });
    const { client, host } = await selectAccount(io.env, {
      command: NAME,
      account: accountFlag(args.flags),
    });
    const cached = await readAppIdentity(dir, host, docs.slug);
    const appId = cached?.app_id ?? (await requireAppBySlug(client, host, docs.slug)).id;
    const dryRun = args.flags["dry-run"] === true;
    const plan = new RequestPlan(client, dryRun);
    const sent = await sendListing(plan, appId, listing);
    const app = dryRun ? undefined : await getApp(client, appId, docs.slug);
    io.stdout.write(
      args.flags.json === true
        ? JSON.stringify({
            host,
            app_id: appId,
            slug: docs.slug,
            listing: sent,
            app: app ?? null,
            dry_run: dryRun,
            plan: plan.steps,
          }) + "\n"
        : dryRun
          ? `dry run: sync the listing of ${docs.slug} on ${host} — nothing was changed; this would send:\n${renderPlan(plan.steps)}\n`
          : `${io.style.green("✓")} listing of ${docs.slug} updated (${Object.keys(sent).join(", ")})\n`,
    );
    return EXIT_OK;
  },
};
