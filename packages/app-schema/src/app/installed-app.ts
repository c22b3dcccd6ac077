import { z } from "zod";

/**
 * One installed (enabled) app as the `apps.*` Host API answers it (R158) and the launcher grid
 * shows it: the dispatcher (app-core) builds it, the browser SDK (app-runtime) types its answers
 * with it.
 */
export const InstalledAppSchema = z.object({
  /** Numeric id on the server; the slug in the dev harness, where there are no ids. */
  app_id: z.string(),
  slug: z.string(),
  /** The publisher handle of `@handle/slug`, when known. */
  handle: z.string().nullable().optional(),
  name: z.string(),
  description: z.string().nullable().optional(),
  icon_url: z.string().nullable().optional(),
  version_id: z.string().optional(),
  views: z.array(
    z.object({
      name: z.string(),
      title: z.string().nullable().optional(),
      /** Marks the app's default view (the manifest's `ui.views[].default`). */
      default: z.boolean().optional(),
    }),
  ),
});
export type InstalledApp = z.infer<typeof InstalledAppSchema>;
