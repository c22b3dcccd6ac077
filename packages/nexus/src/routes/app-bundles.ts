// UI bundle uploads (real-world-cli.md §3.1: A9–A12 under a version, A17–A19 under the working
// draft), mounted under /api/v1/developer/apps/{id}. The file POST streams its multipart body
// (isAppUploadRoute keeps the JSON cap off it) with the declared size as its cap.
import { Hono } from "hono";
import { z } from "zod";
import { bundleView } from "../apps/app-views.js";
import type { BundleOf } from "../apps/bundle-service.js";
import { receiveMultipart } from "../apps/multipart-upload.js";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env } from "../http/context.js";
import { readJson } from "../http/json-body.js";
import { developer, pathId, registry } from "./app-route-helpers.js";

const InitBody = z.object({
  file_map: z.record(z.string(), z.unknown()),
  total_size_bytes: z.number().int().nonnegative().optional(),
  file_count: z.number().int().nonnegative().optional(),
  bundle_format: z.string().min(1).max(40).optional(),
  entry_path: z.string().min(1).max(1024),
  external_origins: z.array(z.string().max(500)).max(64).optional(),
});

export function appBundleRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  const r = () => registry(deps);
  const appId = (c: Ctx) => pathId(c, "id", "app");

  const routes = (prefix: string, of: (c: Ctx) => BundleOf) => {
    app.get(`${prefix}/bundle`, async (c) => {
      const p = await developer(c, deps);
      const b = await r().bundles.get(p.user, appId(c), of(c));
      if (!b) throw new NexusError("not_found", "no bundle was uploaded for this yet");
      return c.json(bundleView(b));
    });

    app.post(`${prefix}/bundle/init`, async (c) => {
      const p = await developer(c, deps);
      const body = await readJson(c, InitBody);
      const base = `${c.get("ownOrigin")}${c.req.path.replace(/\/init$/, "/file")}`;
      const { bundle, files } = await r().bundles.init(
        p.user,
        appId(c),
        of(c),
        body,
        (path) => `${base}?relative_path=${encodeURIComponent(path)}`,
      );
      return c.json({ ...bundleView(bundle), bundle_id: bundle.id, files }, 201);
    });

    app.post(`${prefix}/bundle/file`, async (c) => {
      const p = await developer(c, deps);
      const got = await r().bundles.receive(p.user, appId(c), of(c), (cap) =>
        receiveMultipart(c.req.header("content-type"), c.req.raw.body, {
          fileField: "file",
          maxFileBytes: cap,
        }),
      );
      return c.json(got, 201);
    });

    app.post(`${prefix}/bundle/finalize`, async (c) => {
      const p = await developer(c, deps);
      // `{"skip_remote_check": false}` from the CLI; the server always checks.
      await readJson(c, z.looseObject({ skip_remote_check: z.boolean().optional() }));
      const b = await r().bundles.finalize(p.user, appId(c), of(c));
      return c.json(bundleView(b));
    });
  };
  routes("/versions/:vid{[0-9]+}", (c) => pathId(c, "vid", "version"));
  routes("/working", () => null);
  return app;
}
