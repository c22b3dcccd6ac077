// Finding or creating the app that `apps publish` and `apps push` upload to (real-world-cli.md
// §9.1 step 4, §9.2 step 4). Publish trusts `.anna/app.json` for this host and slug without a
// request; push checks it with a GET (a 404 falls through). Then the slug look-up, then create
// (A2) with the listing basics. A 409 HANDLE_REQUIRED names the command that fixes it.
import { NexusRequestError } from "../account/nexus-error.js";
import { EXIT_REQUEST_FAILED, ExitError } from "../cli/exit-error.js";
import { readAppIdentity } from "./app-identity.js";
import type { AppProject } from "./app-project.js";
import { APPS, type AppRow, findAppBySlug, getApp, is404 } from "./app-resolve.js";
import type { RequestPlan } from "./request-plan.js";

export interface UpsertedApp {
  /** undefined in a dry run that would create the app. */
  id: number | undefined;
  slug: string;
  handle: string | undefined;
  created: boolean;
  fromCache: boolean;
}

export async function upsertApp(
  plan: RequestPlan,
  host: string,
  p: AppProject,
  checkCache: boolean,
  ignoreCache = false,
): Promise<UpsertedApp> {
  const cached = ignoreCache ? undefined : await readAppIdentity(p.dir, host, p.slug);
  if (cached) {
    if (!checkCache) {
      return {
        id: cached.app_id,
        slug: cached.slug,
        handle: cached.handle,
        created: false,
        fromCache: true,
      };
    }
    try {
      const row = await getApp(plan.client, cached.app_id, p.slug);
      return { id: row.id, slug: row.slug, handle: row.handle, created: false, fromCache: true };
    } catch (e) {
      if (!is404(e)) throw e;
    }
  }
  const found = await findAppBySlug(plan.client, p.slug);
  if (found)
    return {
      id: found.id,
      slug: found.slug,
      handle: found.handle,
      created: false,
      fromCache: false,
    };
  const str = (k: string) => {
    const v = p.appJson?.[k] ?? p.manifest[k];
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  let res;
  try {
    res = await plan.send<AppRow>(
      {
        method: "POST",
        path: APPS,
        body: {
          slug: p.slug,
          name: p.name,
          category: str("category"),
          tagline: str("tagline"),
          description: str("description"),
        },
      },
      `creating app ${p.slug}`,
    );
  } catch (e) {
    if (e instanceof NexusRequestError && e.status === 409 && e.code === "HANDLE_REQUIRED") {
      throw new ExitError(
        EXIT_REQUEST_FAILED,
        `creating app ${p.slug} needs a developer handle first; run \`anna-app account set-handle <handle>\`, then push again`,
        { cause: e },
      );
    }
    throw e;
  }
  return {
    id: res?.body.id,
    slug: res?.body.slug ?? p.slug,
    handle: res?.body.handle,
    created: true,
    fromCache: false,
  };
}
