// `apps publish` (R169, real-world-cli.md §9.1): one immutable version straight from the
// folder. Bundled executas are published and frozen first; then the version is created with
// its content hash (a retry of the same content is answered `x-anna-idempotent: hit`), its
// bundle uploaded unless the server already holds the same files, the listing synced, and the
// app read back. It does not go live: that is `apps release <version>` after review.
import { NexusRequestError } from "../account/nexus-error.js";
import { EXIT_INVALID_PROJECT, EXIT_REQUEST_FAILED, ExitError } from "../cli/exit-error.js";
import { writeAppIdentity } from "./app-identity.js";
import {
  executaSummary,
  type PreparedApp,
  prepareApp,
  type PrepareOptions,
} from "./app-prepare.js";
import { APPS, type AppRow, getApp, is404 } from "./app-resolve.js";
import { upsertApp, type UpsertedApp } from "./app-upsert.js";
import { uploadBundle, type UploadedBundle } from "./bundle-upload.js";
import { planListing, sendListing } from "./listing-sync.js";
import { progressBar } from "./progress.js";
import { type PlannedRequest, RequestPlan } from "./request-plan.js";

export interface AppPublishResult {
  app_id: number | null;
  slug: string;
  host: string;
  version: string;
  version_id: number | null;
  content_hash: string;
  idempotent_hit: boolean;
  first_publish: boolean;
  status: string | null;
  bundle: Record<string, unknown> | null;
  executas: { handle: string; tool_id: string; source: string }[];
  warnings: string[];
  dry_run: boolean;
  plan: PlannedRequest[];
}

export type AppPublishOptions = Omit<PrepareOptions, "mode">;

export async function publishApp(o: AppPublishOptions): Promise<AppPublishResult> {
  const prepared = await prepareApp({ ...o, mode: "publish" });
  const { project: p } = prepared;
  const plan = new RequestPlan(o.client, o.dryRun);
  for (const { result } of prepared.executas.published) plan.steps.push(...result.plan);

  let app = await upsertApp(plan, o.host, p, false);
  const remember = async (a: UpsertedApp) => {
    if (!o.dryRun && !o.noWrite && a.id !== undefined) {
      await writeAppIdentity(p.dir, { host: o.host, app_id: a.id, slug: a.slug });
    }
  };
  await remember(app);
  const createVersion = (id: number | undefined) =>
    plan.send<{ id: number; version: string }>(
      {
        method: "POST",
        path: `${APPS}/${id ?? "{app_id}"}/versions?content_hash=${prepared.contentHash}`,
        body: { version: p.version, changelog: p.changelog, manifest: prepared.manifest },
      },
      `creating version ${p.version} of ${p.slug}`,
    );
  let version;
  try {
    try {
      version = await createVersion(app.id);
    } catch (e) {
      // A cached id the server no longer knows: resolve again and retry once.
      if (!(is404(e) && app.fromCache)) throw e;
      app = await upsertApp(plan, o.host, p, false, true);
      await remember(app);
      version = await createVersion(app.id);
    }
  } catch (e) {
    throw versionConflict(e, p.version, p.slug);
  }
  const versionId = version?.body.id;
  const bundle = await sendVersionBundle(o, plan, app.id, versionId, prepared);
  await syncListingBestEffort(plan, app.id, prepared);
  const row: AppRow | undefined =
    app.id === undefined || o.dryRun ? undefined : await getApp(o.client, app.id, p.slug);
  return {
    app_id: app.id ?? null,
    slug: app.slug,
    host: o.host,
    version: p.version,
    version_id: versionId ?? null,
    content_hash: prepared.contentHash,
    idempotent_hit: version?.idempotentHit ?? false,
    first_publish: app.created,
    status: row?.status ?? null,
    bundle,
    executas: executaSummary(prepared),
    warnings: prepared.warnings,
    dry_run: o.dryRun,
    plan: plan.steps,
  };
}

/** A version string the server has with other content: say so, and the command to run. */
export function versionConflict(e: unknown, version: string, slug: string): unknown {
  if (e instanceof NexusRequestError && e.status === 409) {
    return new ExitError(
      EXIT_REQUEST_FAILED,
      `version ${version} of ${slug} already exists with other content (${e.code ?? "409"}); bump with \`--bump patch\``,
      { cause: e },
    );
  }
  return e;
}

/** A9 first: a finalized bundle with the same fingerprint is not sent again. */
async function sendVersionBundle(
  o: AppPublishOptions,
  plan: RequestPlan,
  appId: number | undefined,
  versionId: number | undefined,
  prepared: PreparedApp,
): Promise<Record<string, unknown> | null> {
  const { bundle } = prepared;
  if (!bundle) return null;
  const base = `${APPS}/${appId ?? "{app_id}"}/versions/${versionId ?? "{version_id}"}`;
  if (appId !== undefined && versionId !== undefined) {
    const current = await o.client.get<{ status?: string; sha256_manifest?: string } | null>(
      `${base}/bundle`,
      { what: `reading the bundle of ${prepared.project.version}`, allowStatuses: [404] },
    );
    if (current.status !== 404 && current.body?.status === "bundle_ready") {
      if (current.body.sha256_manifest === bundle.fingerprint) {
        return {
          status: "bundle_ready",
          file_count: bundle.files.length,
          sha256_manifest: bundle.fingerprint,
          unchanged: true,
        };
      }
      throw new ExitError(
        EXIT_INVALID_PROJECT,
        `version ${prepared.project.version} already has a finalized bundle with different content; bump the app version (\`--bump patch\`)`,
      );
    }
  }
  const sent: UploadedBundle = await uploadBundle(
    plan,
    base,
    bundle,
    prepared.manifest,
    progressBar(o.io, `uploading ${bundle.files.length} files`, bundle.totalBytes, o.quiet),
  );
  return { ...(sent.finalize ?? {}), uploaded: sent.uploaded, skipped: sent.skipped };
}

/** Push and publish: a listing problem is a warning, never the command's failure. */
export async function syncListingBestEffort(
  plan: RequestPlan,
  appId: number | undefined,
  prepared: PreparedApp,
): Promise<void> {
  const p = prepared.project;
  try {
    const listing = await planListing({
      dir: p.dir,
      appJson: p.appJson,
      manifest: p.manifest,
      slug: p.slug,
    });
    await sendListing(plan, appId ?? "{app_id}", listing);
  } catch (e) {
    prepared.warnings.push(
      `listing metadata sync skipped: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
