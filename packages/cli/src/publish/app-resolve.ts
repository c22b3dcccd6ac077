// Finding the server-side app a command acts on (real-world-cli.md §9): by slug through the
// look-up `GET /developer/apps?slug=` (the server filters; `[]`, a non-array or 404 mean none),
// or from `.anna/app.json`. Publish and push also create it (A2) when the look-up finds none.
import type { NexusClient } from "../account/nexus-client.js";
import { NexusRequestError } from "../account/nexus-error.js";
import { EXIT_REQUEST_FAILED, ExitError } from "../cli/exit-error.js";
import { readAppIdentity } from "./app-identity.js";

export const APPS = "/api/v1/developer/apps";

/** The app object fields the CLI reads. */
export interface AppRow {
  id: number;
  slug: string;
  name?: string;
  status?: string;
  handle?: string;
  visibility?: string;
  is_published?: boolean;
  review_message?: string | null;
  updated_at?: string;
  [k: string]: unknown;
}

export const is404 = (e: unknown) => e instanceof NexusRequestError && e.status === 404;

export async function findAppBySlug(
  client: NexusClient,
  slug: string,
): Promise<AppRow | undefined> {
  const res = await client.get<unknown>(APPS, {
    query: { slug },
    what: `looking up app ${slug}`,
    allowStatuses: [404],
  });
  if (res.status === 404 || !Array.isArray(res.body)) return undefined;
  const row = (res.body as AppRow[]).find((r) => r.slug === slug) ?? res.body[0];
  return typeof (row as AppRow | undefined)?.id === "number" ? (row as AppRow) : undefined;
}

export async function getApp(client: NexusClient, id: number, slug: string): Promise<AppRow> {
  return (await client.get<AppRow>(`${APPS}/${id}`, { what: `reading app ${slug}` })).body;
}

export function noSuchApp(host: string, slug: string): ExitError {
  return new ExitError(
    EXIT_REQUEST_FAILED,
    `no app '${slug}' of yours on ${host}; see \`anna-app apps list\` (or create it with \`anna-app apps push\`)`,
  );
}

/** `apps status|versions|grants|unpublish|…  <slug>`: the look-up, or exit 5. */
export async function requireAppBySlug(
  client: NexusClient,
  host: string,
  slug: string,
): Promise<AppRow> {
  const row = await findAppBySlug(client, slug);
  if (!row) throw noSuchApp(host, slug);
  return row;
}

/**
 * `apps cut|release|discard|submit-review`: `--slug` (look-up, then the app itself), else the
 * folder's `.anna/app.json` for this host (a 404 on its id re-resolves by its slug), else the
 * folder's own slug.
 */
export async function resolveProjectApp(
  client: NexusClient,
  host: string,
  dir: string,
  slug: string | undefined,
  projectSlug: () => Promise<string | undefined>,
): Promise<AppRow> {
  if (slug !== undefined) {
    const row = await requireAppBySlug(client, host, slug);
    return getApp(client, row.id, slug);
  }
  const cached = await readAppIdentity(dir, host);
  if (cached) {
    try {
      return await getApp(client, cached.app_id, cached.slug);
    } catch (e) {
      if (!is404(e)) throw e;
    }
    const row = await requireAppBySlug(client, host, cached.slug);
    return getApp(client, row.id, cached.slug);
  }
  const own = await projectSlug();
  if (own === undefined) {
    throw new ExitError(
      EXIT_REQUEST_FAILED,
      `this folder has no .anna/app.json for ${host} and no app.json slug; pass --slug <slug> or run \`anna-app apps push\` first`,
    );
  }
  const row = await requireAppBySlug(client, host, own);
  return getApp(client, row.id, own);
}
