// `apps push` (R169, real-world-cli.md §9.2): upsert the one mutable working draft. Bundled
// executas are published without a freeze; the draft is PUT with its content hash (and
// `If-Match: <revision>` with --if-match), its bundle staged unless the server answers that
// nothing changed and the bundle is ready, the listing synced, and the app and draft read back.
import { NexusRequestError } from "../account/nexus-error.js";
import { EXIT_INVALID_PROJECT, ExitError } from "../cli/exit-error.js";
import { writeAppIdentity } from "./app-identity.js";
import { executaSummary, prepareApp } from "./app-prepare.js";
import { type AppPublishOptions, syncListingBestEffort } from "./app-publish.js";
import { APPS, getApp } from "./app-resolve.js";
import { upsertApp } from "./app-upsert.js";
import { uploadBundle } from "./bundle-upload.js";
import { progressBar } from "./progress.js";
import { type PlannedRequest, RequestPlan } from "./request-plan.js";

export interface AppPushOptions extends AppPublishOptions {
  ifMatch: number | undefined;
}

export interface AppPushResult {
  app_id: number | null;
  slug: string;
  host: string;
  handle: string | null;
  version: string;
  revision: number | null;
  content_hash: string;
  unchanged: boolean;
  bundle_status: string | null;
  bundle_uploaded: boolean;
  dirty_vs_latest_cut: boolean | null;
  status: string | null;
  first_publish: boolean;
  executas: { handle: string; tool_id: string; source: string }[];
  warnings: string[];
  dry_run: boolean;
  plan: PlannedRequest[];
}

interface WorkingAnswer {
  revision?: number;
  content_hash?: string;
  unchanged?: boolean;
  bundle_status?: string;
  dirty_vs_latest_cut?: boolean;
}

export async function pushApp(o: AppPushOptions): Promise<AppPushResult> {
  const prepared = await prepareApp({ ...o, mode: "push" });
  const { project: p } = prepared;
  const plan = new RequestPlan(o.client, o.dryRun);
  for (const { result } of prepared.executas.published) plan.steps.push(...result.plan);
  const app = await upsertApp(plan, o.host, p, true);
  if (!o.dryRun && !o.noWrite && app.id !== undefined) {
    await writeAppIdentity(p.dir, {
      host: o.host,
      app_id: app.id,
      slug: app.slug,
      ...(app.handle === undefined ? {} : { handle: app.handle }),
    });
  }
  const base = `${APPS}/${app.id ?? "{app_id}"}/working`;
  let put;
  try {
    put = await plan.send<WorkingAnswer | null>(
      {
        method: "PUT",
        path: base,
        body: {
          manifest: prepared.manifest,
          changelog: p.changelog,
          content_hash: prepared.contentHash,
        },
      },
      `pushing the working draft of ${p.slug}`,
      o.ifMatch === undefined ? {} : { headers: { "If-Match": String(o.ifMatch) } },
    );
  } catch (e) {
    if (e instanceof NexusRequestError && (e.status === 409 || e.status === 412)) {
      throw new ExitError(
        EXIT_INVALID_PROJECT,
        `the working draft of ${p.slug} was modified concurrently (If-Match=${o.ifMatch ?? "none"} is stale); see its revision with \`anna-app apps status ${p.slug}\` and push again with that --if-match, or without it`,
        { cause: e },
      );
    }
    throw e;
  }
  const answer = put?.body ?? {};
  const unchanged = answer.unchanged === true || put?.idempotentHit === true;
  let bundleStatus = answer.bundle_status ?? null;
  let bundleUploaded = false;
  if (prepared.bundle && !(unchanged && bundleStatus === "ready")) {
    const sent = await uploadBundle(
      plan,
      base,
      prepared.bundle,
      prepared.manifest,
      progressBar(
        o.io,
        `uploading ${prepared.bundle.files.length} files`,
        prepared.bundle.totalBytes,
        o.quiet,
      ),
    );
    bundleUploaded = true;
    const s = sent.finalize?.bundle_status;
    bundleStatus = typeof s === "string" ? s : bundleStatus;
  }
  await syncListingBestEffort(plan, app.id, prepared);
  let status: string | null = null;
  let dirty: boolean | null = null;
  let revision = answer.revision ?? null;
  if (app.id !== undefined && !o.dryRun) {
    status = (await getApp(o.client, app.id, p.slug)).status ?? null;
    const w = await o.client.get<WorkingAnswer | null>(base, {
      what: `reading the working draft of ${p.slug}`,
      allowStatuses: [404],
    });
    if (w.status !== 404 && w.body) {
      dirty = w.body.dirty_vs_latest_cut ?? null;
      revision = w.body.revision ?? revision;
    }
  }
  return {
    app_id: app.id ?? null,
    slug: app.slug,
    host: o.host,
    handle: app.handle ?? null,
    version: p.version,
    revision,
    content_hash: prepared.contentHash,
    unchanged,
    bundle_status: bundleStatus,
    bundle_uploaded: bundleUploaded,
    dirty_vs_latest_cut: dirty,
    status,
    first_publish: app.created,
    executas: executaSummary(prepared),
    warnings: prepared.warnings,
    dry_run: o.dryRun,
    plan: plan.steps,
  };
}
