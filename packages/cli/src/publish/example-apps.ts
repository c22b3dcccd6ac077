// `npm start` puts the example apps of `examples/apps/` in the App Store of the server it starts,
// through the same commands a developer runs against any Nexus — `anna-app apps publish` (bundled
// executas published and frozen with their binary_artifacts uploaded, the bundle, the listing),
// `apps submit-review`, an admin's approve-and-publish, and `apps release` for a newer version —
// so the examples pass every registry check a real app does. Idempotent: an app whose folder
// version is already live is left alone, so a second start sends no write.
import { cp, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { NexusClient } from "../account/nexus-client.js";
import { createStyle } from "../cli/style.js";
import { listVersions } from "../commands/apps-release.js";
import { main } from "../main.js";
import { loadAppProject } from "./app-project.js";
import { findAppBySlug, getApp } from "./app-resolve.js";

/** Folders of examples/apps that are not apps for the store, and why. */
export const NOT_STORE_APPS: ReadonlyMap<string, string> = new Map([
  ["mount-bundle-smoke", "a fixture of the mountBundle tests, not an app anyone would install"],
]);
/** What a staged copy leaves out: tests, recordings, dependencies, another host's identity. */
const NOT_PUBLISHED = new Set(["node_modules", "test", "tests", "fixtures", ".anna"]);
/** A command's captured output; an `apps publish --json` answer is a few KiB. */
const MAX_CAPTURE_BYTES = 1024 * 1024;

export type ExampleAction = "published" | "updated" | "unchanged";

export interface ExampleAppResult {
  slug: string;
  version: string;
  action: ExampleAction;
}

export interface PublishExamplesOptions {
  /** The server's origin, e.g. `http://127.0.0.1:8080`. */
  host: string;
  /** A PAT of an account that is a verified developer and an admin (it approves its own apps). */
  pat: string;
  appsDir: string;
  /** Checked between apps: a stop signal ends the run after the app in progress. */
  signal?: AbortSignal;
}

/** The store's example apps: folders with a manifest.json and an app.json, less NOT_STORE_APPS. */
export async function exampleAppDirs(appsDir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of (await readdir(appsDir)).sort()) {
    if (NOT_STORE_APPS.has(name)) continue;
    const dir = path.join(appsDir, name);
    const files = await Promise.all(
      ["manifest.json", "app.json"].map((f) => stat(path.join(dir, f)).catch(() => undefined)),
    );
    if (files.every((f) => f?.isFile() === true)) out.push(dir);
  }
  return out;
}

export async function publishExampleApps(o: PublishExamplesOptions): Promise<ExampleAppResult[]> {
  const client = new NexusClient({ host: o.host, pat: o.pat });
  const results: ExampleAppResult[] = [];
  for (const dir of await exampleAppDirs(o.appsDir)) {
    o.signal?.throwIfAborted();
    results.push(await publishOne(client, o, dir));
  }
  return results;
}

async function publishOne(
  client: NexusClient,
  o: PublishExamplesOptions,
  dir: string,
): Promise<ExampleAppResult> {
  const { slug, version } = await loadAppProject(dir);
  const existing = await findAppBySlug(client, slug);
  if (existing) {
    const app = await getApp(client, existing.id, slug);
    const live = (await listVersions(client, app)).some(
      (v) => v.version === version && v.is_latest === true,
    );
    if (live && app.status === "PUBLISHED") return { slug, version, action: "unchanged" };
  }
  // Publishing writes into the folder (bundle/anna-tool-ids.js, .anna/); a copy keeps the
  // checkout clean.
  const staging = await mkdtemp(path.join(tmpdir(), `anna-example-${slug}-`));
  try {
    const staged = path.join(staging, slug);
    await cp(dir, staged, {
      recursive: true,
      filter: (src) => src === dir || !NOT_PUBLISHED.has(path.basename(src)),
    });
    const cli = (...argv: string[]) => runCli(argv, staged, o);
    await cli("apps", "publish", "--json", "--no-write");
    const app = await getApp(client, (await findAppBySlug(client, slug))!.id, slug);
    if (app.status === "DRAFT" || app.status === "REJECTED") {
      await cli("apps", "submit-review", slug, "--json");
      await client.post(`/api/v1/super-admin/apps/${app.id}/approve`, {
        body: { publish: true },
        what: `approving and publishing ${slug}`,
      });
      return { slug, version, action: existing ? "updated" : "published" };
    }
    const released = JSON.parse(
      await cli("apps", "release", version, "--slug", slug, "--json"),
    ) as { app_id: number; version_id: number; release_review_state: string | null };
    // A server with release review holds the update for an admin, which the publisher is.
    if (released.release_review_state === "pending") {
      await client.post(
        `/api/v1/super-admin/apps/${released.app_id}/versions/${released.version_id}/approve-release`,
        { body: { notes: "an example app, released by npm start" }, what: `releasing ${slug}` },
      );
    }
    return { slug, version, action: "updated" };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** `anna-app <argv>` in this process, as the developer would type it; its output is captured. */
async function runCli(argv: string[], cwd: string, o: PublishExamplesOptions): Promise<string> {
  const out = capture();
  const err = capture();
  const style = createStyle(false);
  const code = await main(argv, {
    stdin: process.stdin,
    stdout: out.stream,
    stderr: err.stream,
    env: { ...process.env, ANNA_APP_HOST: o.host, ANNA_APP_PAT: o.pat, NO_COLOR: "1" },
    cwd,
    style,
    errStyle: style,
  });
  if (code !== 0) {
    throw new Error(
      `publishing the example ${path.basename(cwd)}: \`anna-app ${argv.join(" ")}\` exited ${code}: ${err.text().trim() || out.text().trim()}`,
    );
  }
  return out.text();
}

function capture(): { stream: Writable; text(): string } {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      const b = Buffer.from(chunk);
      if (bytes + b.length <= MAX_CAPTURE_BYTES) chunks.push(b);
      bytes += b.length;
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}
