// `POST /api/v1/anna-apps/dev/executas/register` (real-world-cli.md D3): the dev AnnaApp an
// executa's real-mode calls (`executa dev --storage real`, sampling…) act through. There is no
// app registry yet, so registration stores nothing: the dev app of an executa is named by a rule
// (`executa-<tool_id>`, or the `slug` asked for), and every storage token minted for that slug
// and tool reaches the same rows, which is all the dev tools need. `app_id` is null until the
// registry exists; `created` is false because nothing new was made.
import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps, Env } from "../http/context.js";
import { devCaller } from "../http/dev-auth.js";
import { readJson } from "../http/json-body.js";
import { SLUG, TOOL_ID } from "./dev-sessions.js";

const Body = z.object({
  pat: z.string().max(512).optional(),
  tool_id: TOOL_ID,
  slug: SLUG.optional(),
  name: z.string().min(1).max(200).optional(),
});

/**
 * The dev app slug of an executa: the published CLI's own fallback (`executa-<tool_id>`, or the
 * tool id itself when it already starts so), lowercased and with what a slug cannot hold
 * turned into '-', so any tool id gets a slug the mint endpoints accept.
 */
export function devAppSlugOf(toolId: string): string {
  const base = toolId.startsWith("executa-") ? toolId : `executa-${toolId}`;
  return base
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/-+$/, "")
    .slice(0, 64);
}

export function devExecutaRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  app.post("/executas/register", async (c) => {
    const body = await readJson(c, Body);
    const p = await devCaller(c, deps, body.pat);
    const slug = body.slug ?? devAppSlugOf(body.tool_id);
    deps.logger.log("info", "dev executa registered", {
      user_id: p.user.id,
      tool_id: body.tool_id,
      app_slug: slug,
    });
    return c.json({
      created: false,
      slug,
      app_id: null,
      kind: "executa",
      tool_id: body.tool_id,
      name: body.name ?? body.tool_id,
    });
  });
  return app;
}
