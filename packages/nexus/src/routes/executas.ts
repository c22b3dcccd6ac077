// The Executa Hub over HTTP, at /api/v1/executas: drafts (E1, E2, PATCH), the owner's tools and
// skills (E3–E14 of real-world-cli.md §4, the skill table of L4131–4142). Lists are bare arrays
// and versions come newest first, as the published CLI reads them; a write the server already
// had answers `x-anna-idempotent: hit`. `/my/tools/{id}` also finds skills, because the
// published CLI reads skill versions there; `/my/skills/{id}` finds skills only.
import { formatSkillIssue, parseSkillFile } from "@anna-ai/skills";
import { Hono } from "hono";
import { z } from "zod";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env, Principal } from "../http/context.js";
import { requireScopes, requireUser } from "../http/guards.js";
import { readJson } from "../http/json-body.js";
import type { ExecutaHub } from "../hub/executa-hub.js";
import {
  EXECUTA_TYPES,
  type Executa,
  type ExecutaDraft,
  type ExecutaType,
  type ExecutaVersion,
  VISIBILITIES,
} from "../hub/executa-store.js";
import { SLUG } from "./dev-sessions.js";
import { executaInstallRoutes } from "./executa-install.js";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const HIT = "x-anna-idempotent";
// Hono ends a param pattern at the first `}`, so no `{m,n}` quantifiers inside one.
const ID = ":id{[0-9]+}";

const NAME = z.string().trim().min(1).max(200);
const DESCRIPTION = z.string().max(4000).nullish();
const IDEMPOTENCY_KEY = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{8,128}$/, "must be 8–128 of A-Z, a-z, 0-9, '.', '_', ':', '-'");
const OBJECT = z.record(z.string(), z.unknown());
const CONTENT_HASH = z.string().regex(/^[0-9a-f]{16,128}$/i, "must be a hex digest");

const DraftBody = z.object({
  name: NAME,
  executa_type: z.enum(EXECUTA_TYPES as [ExecutaType, ...ExecutaType[]]),
  slug_override: SLUG.optional(),
  slug: SLUG.optional(),
  idempotency_key: IDEMPOTENCY_KEY.optional(),
  payload: OBJECT.optional(),
});

/** PUT E5/E13 (and the draft payloads): the fields the published CLI sends, typed; others kept. */
const ExecutaFields = z.looseObject({
  name: NAME,
  description: DESCRIPTION,
  version: z.string().max(64).optional(),
  distribution_type: z.enum(["uv", "npm", "homebrew", "binary", "pipx", "local"]).optional(),
  package_name: z.string().max(214).optional(),
  executable_name: z.string().max(128).optional(),
  supports_protocol: z.boolean().optional(),
  binary_urls: z
    .record(z.string(), z.union([z.string().url(), z.looseObject({ url: z.string().url() })]))
    .optional(),
  capabilities: z.array(z.string().max(128)).max(64).optional(),
  skill_content: z.string().max(1_000_000).optional(),
  execution_mode: z.string().max(64).optional(),
  skill_execution_mode: z.string().max(64).optional(),
});

function draftView(d: ExecutaDraft) {
  return {
    id: d.id,
    tool_id: d.toolId,
    executa_type: d.type,
    name: d.name,
    slug: d.slug,
    payload: d.payload,
    created_at: iso(d.createdAt),
    expires_at: iso(d.expiresAt),
    committed_executa_id: d.committedExecutaId,
  };
}

export function executaView(e: Executa) {
  return {
    ...e.payload,
    id: e.id,
    tool_id: e.toolId,
    executa_type: e.type,
    name: e.name,
    description: e.description,
    slug: e.slug,
    visibility: e.visibility,
    is_published: e.visibility === "public",
    archived: e.archivedAt !== null,
    archived_at: iso(e.archivedAt),
    created_at: iso(e.createdAt),
    updated_at: iso(e.updatedAt),
  };
}

function versionView(v: ExecutaVersion, inPublishedApp: boolean) {
  return {
    id: v.id,
    version: v.version,
    content_hash: v.contentHash,
    in_published_app: inPublishedApp,
    frozen_by: v.frozenBy,
    created_at: iso(v.createdAt),
  };
}

function idOf(c: Ctx, name = "id"): number {
  const raw = c.req.param(name) ?? "";
  if (raw.length > 15)
    throw new NexusError("not_found", `no such ${name === "id" ? "executa" : "version"}: ${raw}`);
  return Number(raw);
}

function hub(deps: AppDeps): ExecutaHub {
  if (!deps.hub)
    throw new NexusError("unavailable", "the Executa Hub is not enabled on this server");
  return deps.hub;
}

/** Writes need the `executas:publish` scope and a developer whose access was not revoked. */
export async function publisher(c: Ctx, deps: AppDeps): Promise<Principal> {
  const p = await requireUser(c, deps);
  requireScopes(p, ["executas:publish"]);
  if (p.user.developerState === "revoked") {
    throw new NexusError(
      "DEVELOPER_REVOKED",
      "developer access was revoked; only an admin can restore it",
    );
  }
  return p;
}

/** Executa fields, with the skill PUT's `skill_execution_mode` stored as `execution_mode`. */
function fieldsOf(body: z.infer<typeof ExecutaFields>) {
  const { name, description, skill_execution_mode, ...fields } = body;
  if (skill_execution_mode !== undefined && fields.execution_mode === undefined) {
    fields.execution_mode = skill_execution_mode;
  }
  return { name, description, fields };
}

export function executaRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  // S26: a skill from a payload, and back. The frontmatter is checked as the skill loader
  // checks it, so a skill that imports is one hosts can load.
  app.post("/my/skills/import", async (c) => {
    const p = await publisher(c, deps);
    const body = await readJson(
      c,
      ExecutaFields.extend({
        name: NAME.optional(),
        slug: SLUG,
        skill_content: z.string().max(1_000_000),
      }),
    );
    const parsed = parseSkillFile(body.skill_content, { fallbackName: body.slug });
    if (!parsed.ok) {
      const issues = parsed.errors.map((i) => formatSkillIssue(i));
      throw new NexusError(
        "validation_failed",
        `skill_content: ${issues[0] ?? "invalid SKILL.md"}`,
        {
          details: { issues },
        },
      );
    }
    const { name, description, slug, executa_type: _type, ...rest } = body;
    const { fields } = fieldsOf({ ...rest, name: name ?? parsed.skill.name });
    const e = await hub(deps).importSkill(p.user, {
      name: name ?? parsed.skill.name,
      slug,
      description: description ?? parsed.skill.description,
      payload: fields,
    });
    return c.json({ ...executaView(e), executa_id: e.id }, 201);
  });
  app.get(`/my/skills/${ID}/export`, async (c) => {
    const p = await requireUser(c, deps);
    const e = await hub(deps).owned(p.user, idOf(c), "skill");
    return c.json({
      ...e.payload,
      name: e.name,
      slug: e.slug,
      description: e.description,
      executa_type: e.type,
    });
  });
  app.route("/my/tools", executaKindRoutes(deps, undefined));
  app.route("/", executaInstallRoutes(deps));
  app.route("/my/skills", executaKindRoutes(deps, "skill"));

  app.post("/my/drafts", async (c) => {
    const p = await publisher(c, deps);
    const body = await readJson(c, DraftBody);
    const header = c.req.header("idempotency-key");
    const key = body.idempotency_key ?? (header === undefined ? undefined : headerKey(header));
    const slug = body.slug_override ?? body.slug;
    if (slug === undefined) {
      throw new NexusError(
        "validation_failed",
        "slug_override: give the executa's slug (from executa.json)",
      );
    }
    const { value: d, hit } = await hub(deps).createDraft(p.user, {
      name: body.name,
      type: body.executa_type,
      slug,
      idempotencyKey: key,
      payload: body.payload ?? {},
    });
    if (!hit) return c.json(draftView(d), 201);
    c.header(HIT, "hit");
    // The published CLI's "already committed" signal: hit + negative id + committed_executa_id.
    if (d.committedExecutaId !== null) {
      return c.json({
        ...draftView(d),
        id: -d.id,
        payload: { ...d.payload, committed_executa_id: d.committedExecutaId },
      });
    }
    return c.json(draftView(d));
  });

  app.patch(`/my/drafts/${ID}`, async (c) => {
    const p = await publisher(c, deps);
    const body = await readJson(
      c,
      z.looseObject({ name: NAME.optional(), payload: OBJECT.optional() }),
    );
    const { name, payload, ...rest } = body;
    const d = await hub(deps).patchDraft(p.user, idOf(c), {
      name,
      payload: { ...rest, ...payload },
    });
    return c.json(draftView(d));
  });

  app.post(`/my/drafts/${ID}/commit`, async (c) => {
    const p = await publisher(c, deps);
    const body = await readJson(c, z.object({ payload: OBJECT.optional() }));
    const { value: e, hit } = await hub(deps).commitDraft(p.user, idOf(c), body.payload ?? {});
    if (hit) c.header(HIT, "hit");
    return c.json({ ...executaView(e), executa_id: e.id }, hit ? 200 : 201);
  });

  return app;
}

/**
 * The routes under `/my/tools` (`type` undefined: any of the caller's executas, since the
 * published CLI reads skill versions there) and `/my/skills` (skills only).
 */
function executaKindRoutes(deps: AppDeps, type: ExecutaType | undefined): Hono<Env> {
  const app = new Hono<Env>();
  app.get("/", async (c) => {
    const p = await requireUser(c, deps);
    const only = c.req.query("executa_type");
    const filter = type ?? (only === "tool" || only === "skill" ? only : undefined);
    const list = await hub(deps).list(p.user, {
      ...(filter === undefined ? {} : { type: filter }),
      includeArchived: c.req.query("include_archived") === "true",
    });
    return c.json(list.map(executaView));
  });

  app.get(`/${ID}/detail`, async (c) => {
    const p = await requireUser(c, deps);
    const h = hub(deps);
    const e = await h.owned(p.user, idOf(c), type);
    const latest = (await h.versions(p.user, e.id))[0];
    return c.json({
      ...executaView(e),
      latest_version: latest ? versionView(latest.version, latest.inPublishedApp) : null,
    });
  });

  app.put(`/${ID}`, async (c) => {
    const p = await publisher(c, deps);
    const body = await readJson(c, ExecutaFields);
    const e = await hub(deps).update(p.user, idOf(c), type, fieldsOf(body));
    return c.json(executaView(e));
  });

  const visibility = async (c: Ctx, target: (typeof VISIBILITIES)[number]) => {
    const p = await publisher(c, deps);
    const { executa, frozen } = await hub(deps).setVisibility(p.user, idOf(c), type, target);
    return c.json({
      ...executaView(executa),
      frozen_version: frozen ? versionView(frozen, false) : null,
    });
  };
  app.post(`/${ID}/visibility`, async (c) => {
    const body = await readJson(
      c,
      z.object({ visibility: z.enum(VISIBILITIES as ["private", "app_bundled", "public"]) }),
    );
    return visibility(c, body.visibility);
  });
  app.post(`/${ID}/publish`, (c) => visibility(c, "public"));
  app.post(`/${ID}/unpublish`, (c) => visibility(c, "private"));

  app.get(`/${ID}/versions`, async (c) => {
    const p = await requireUser(c, deps);
    const rows = await hub(deps).versions(p.user, idOf(c), type);
    return c.json(rows.map((r) => versionView(r.version, r.inPublishedApp)));
  });

  app.post(`/${ID}/versions`, async (c) => {
    const p = await publisher(c, deps);
    const body = await readJson(c, z.object({ version: z.string().max(64).optional() }));
    const raw = c.req.query("content_hash");
    const contentHash = raw === undefined || raw === "" ? undefined : parseHash(raw);
    const { value, hit } = await hub(deps).freezeVersion(p.user, idOf(c), type, {
      version: body.version,
      contentHash,
    });
    if (hit) c.header(HIT, "hit");
    return c.json(versionView(value, false), hit ? 200 : 201);
  });

  app.delete(`/${ID}/versions/:vid{[0-9]+}`, async (c) => {
    const p = await publisher(c, deps);
    const v = await hub(deps).yank(p.user, idOf(c), type, idOf(c, "vid"));
    return c.json({ yanked: true, id: v.id, version: v.version });
  });

  app.delete(`/${ID}`, async (c) => {
    const p = await publisher(c, deps);
    const outcome = await hub(deps).remove(p.user, idOf(c), type);
    return c.json({ deleted: outcome === "deleted", archived: outcome === "archived" });
  });

  return app;
}

function headerKey(raw: string): string {
  if (!IDEMPOTENCY_KEY.safeParse(raw).success) {
    throw new NexusError(
      "validation_failed",
      "Idempotency-Key: must be 8–128 of A-Z, a-z, 0-9, '.', '_', ':', '-'",
    );
  }
  return raw;
}

function parseHash(raw: string): string {
  const r = CONTENT_HASH.safeParse(raw);
  if (!r.success) throw new NexusError("validation_failed", "content_hash: must be a hex digest");
  return raw.toLowerCase();
}
