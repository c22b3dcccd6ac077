// The App Store over HTTP: the public catalogue (`/api/v1/store/*`, no sign-in needed), install
// and uninstall (`POST|DELETE /api/v1/store/apps/{slug}/install`), what the caller has
// (`/api/v1/me/apps`, `/api/v1/me/executas`) and their grants for one app as the published CLI's
// `apps grants` reads them (`GET /api/v1/apps/{appId}/grants`, real-world-cli.md A24). Writes take a
// browser session (the cookie's CSRF rules apply, createApp's guard) or a PAT with `aps:dev`.
import { APP_SLUG_PATTERN } from "@anna-ai/app-schema";
import { Hono } from "hono";
import { z } from "zod";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env, Principal } from "../http/context.js";
import { authenticate, requireScopes, requireUser } from "../http/guards.js";
import { readJson } from "../http/json-body.js";
import type { AppStore } from "../store/app-store.js";
import type { InstallOutcome } from "../store/installs.js";

const TOOL_ID = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/);

/** `web_grant` (R152): unknown keys are refused so a typo never reads as "granted". */
const WebGrantSchema = z.strictObject({
  enabled: z.boolean().optional(),
  allowSearch: z.boolean().optional(),
  allowFetch: z.boolean().optional(),
  allowAdvanced: z.boolean().optional(),
  allowImageSearch: z.boolean().optional(),
  allowImageFetch: z.boolean().optional(),
  maxResultsPerCall: z.int().min(1).max(50).optional(),
});

/** `credentials_grant {enabled, providers[]}` (R151). */
const CredentialsGrantSchema = z.strictObject({
  enabled: z.boolean().optional(),
  providers: z
    .array(z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/))
    .max(32)
    .optional(),
});

const UserAppPatchBody = z
  .strictObject({
    enabled: z.boolean().optional(),
    auto_update: z.boolean().optional(),
    web_grant: WebGrantSchema.nullable().optional(),
    credentials_grant: CredentialsGrantSchema.nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, {
    message: "send at least one of enabled, auto_update, web_grant, credentials_grant",
  });

function store(deps: AppDeps): AppStore {
  if (!deps.store)
    throw new NexusError("unavailable", "the App Store is not enabled on this server");
  return deps.store;
}

/** A user for a store call: any session, or a PAT that carries `aps:dev`. */
export async function member(c: Ctx, deps: AppDeps): Promise<Principal> {
  const p = await requireUser(c, deps);
  requireScopes(p, ["aps:dev"]);
  return p;
}

function slugOf(c: Ctx): string {
  const slug = c.req.param("slug") ?? "";
  if (!APP_SLUG_PATTERN.test(slug)) {
    throw new NexusError(
      "not_found",
      `no app '${slug.slice(0, 80)}': app slugs are 3–80 of a-z, 0-9 and '-'`,
    );
  }
  return slug;
}

export function toolIdOf(c: Ctx): string {
  const raw = c.req.param("toolId") ?? "";
  if (!TOOL_ID.safeParse(raw).success) {
    throw new NexusError("not_found", `no executa '${raw.slice(0, 200)}'`);
  }
  return raw;
}

function installView(o: InstallOutcome) {
  return {
    app_id: o.appId,
    slug: o.slug,
    installed_version: o.version,
    previous_version: o.previousVersion,
    executas: {
      installed: o.installedExecutas,
      already_installed: o.keptExecutas,
      unavailable: o.unavailableExecutas,
      removed: o.removedExecutas,
    },
  };
}

export function storeRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();

  app.get("/store/apps", async (c) => {
    const rawLimit = c.req.query("limit");
    const limit = rawLimit === undefined || rawLimit === "" ? undefined : Number(rawLimit);
    const page = await store(deps).catalogue.search({
      q: c.req.query("q")?.trim() || undefined,
      category: c.req.query("category"),
      cursor: c.req.query("cursor"),
      limit,
    });
    return c.json(page);
  });

  app.get("/store/categories", async (c) => c.json(await store(deps).catalogue.categories()));

  app.get("/store/apps/:slug", async (c) => {
    const slug = slugOf(c);
    const viewer = await authenticate(c, deps);
    const found = await store(deps).catalogue.detail(slug, viewer?.user.id);
    if (!found) throw new NexusError("not_found", `no app '${slug}' in the store`);
    return c.json(found);
  });

  app.post("/store/apps/:slug/install", async (c) => {
    const p = await member(c, deps);
    const outcome = await store(deps).installs.install(p.user.id, slugOf(c));
    const mine = await store(deps).apps.get(p.user.id, outcome.slug);
    return c.json({ ...installView(outcome), app: mine }, outcome.created ? 201 : 200);
  });

  app.delete("/store/apps/:slug/install", async (c) => {
    const p = await member(c, deps);
    const slug = slugOf(c);
    const { appId, removedExecutas } = await store(deps).installs.uninstall(p.user.id, slug);
    return c.json({ app_id: appId, slug, uninstalled: true, removed_executas: removedExecutas });
  });

  app.get("/me/apps", async (c) => {
    const p = await member(c, deps);
    return c.json(await store(deps).apps.list(p.user.id));
  });

  app.get("/me/apps/:slug", async (c) => {
    const p = await member(c, deps);
    const slug = slugOf(c);
    const mine = await store(deps).apps.get(p.user.id, slug);
    if (!mine) throw new NexusError("not_found", `you have not installed '${slug}'`);
    return c.json(mine);
  });

  app.patch("/me/apps/:slug", async (c) => {
    const p = await member(c, deps);
    const slug = slugOf(c);
    const body = await readJson(c, UserAppPatchBody);
    await store(deps).installs.update(p.user.id, slug, {
      enabled: body.enabled,
      autoUpdate: body.auto_update,
      webGrant: body.web_grant,
      credentialsGrant: body.credentials_grant,
    });
    return c.json(await store(deps).apps.get(p.user.id, slug));
  });

  app.get("/me/executas", async (c) => {
    const p = await member(c, deps);
    return c.json(await store(deps).executas.list(p.user.id));
  });

  app.put("/me/executas/:toolId", async (c) => {
    const p = await member(c, deps);
    const { created, executa } = await store(deps).executas.install(p.user.id, toolIdOf(c));
    return c.json(executa, created ? 201 : 200);
  });

  app.patch("/me/executas/:toolId", async (c) => {
    const p = await member(c, deps);
    const body = await readJson(c, z.strictObject({ enabled: z.boolean() }));
    return c.json(await store(deps).executas.setEnabled(p.user.id, toolIdOf(c), body.enabled));
  });

  app.delete("/me/executas/:toolId", async (c) => {
    const p = await member(c, deps);
    const toolId = toolIdOf(c);
    await store(deps).executas.remove(p.user.id, toolId);
    return c.json({ tool_id: toolId, removed: true });
  });

  app.get("/apps/:appId{[0-9]+}/grants", async (c) => {
    const p = await member(c, deps);
    const raw = c.req.param("appId");
    const id = raw.length > 15 ? -1 : Number(raw);
    const grants = await store(deps).apps.grants(p.user.id, id);
    if (!grants) throw new NexusError("not_found", `no app with id ${raw.slice(0, 20)} for you`);
    return c.json(grants);
  });

  return app;
}
