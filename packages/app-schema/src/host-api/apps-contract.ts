// `apps.*` (R158): browse and launch the user's installed apps and curate the pinned deck. The
// Reference names no arguments; these are the dispatcher's (docs/app-core.md, D-core-25).
import { z } from "zod";
import { InstalledAppSchema } from "../app/installed-app.js";
import { hostMethod, NoArgsSchema, lazySchema } from "./method-contract.js";

/** A numeric app id or `@handle/slug`; the dev harness also takes a bare slug. */
export const AppRefSchema = lazySchema(() => z.union([z.string().min(1), z.int().nonnegative()]));

/** Every deck answer: the pinned ids in order and the apps they name. */
export const AppsDeckSchema = lazySchema(() =>
  z.object({
    app_ids: z.array(z.string()),
    apps: z.array(InstalledAppSchema),
  }),
);

/** A deck mutation's answer; `changed: false` for a no-op (pinning twice, unpinning unpinned). */
export const AppsDeckChangeSchema = lazySchema(() =>
  AppsDeckSchema().extend({ changed: z.boolean() }),
);

/** `apps.launch` of the own app: the window as `window.hello` shows windows; `reused` when deduped. */
export const AppsLaunchResultSchema = lazySchema(() =>
  z.looseObject({
    window_uuid: z.string(),
    view: z.string().optional(),
    reused: z.boolean().optional(),
  }),
);

const AppsListSchema = lazySchema(() => z.object({ apps: z.array(InstalledAppSchema) }));

export const APPS_CONTRACT = {
  "apps.list": hostMethod(NoArgsSchema, AppsListSchema),
  "apps.search": hostMethod(() => z.looseObject({ query: z.string() }), AppsListSchema),
  "apps.get": hostMethod(
    () => z.looseObject({ app_ref: AppRefSchema() }),
    () => z.object({ app: InstalledAppSchema }),
  ),
  /** Opens a window (emits `open_view`). */
  "apps.launch": hostMethod(
    () =>
      z.looseObject({
        app_ref: AppRefSchema(),
        view: z.string().min(1).optional(),
        payload: z.unknown().optional(),
      }),
    AppsLaunchResultSchema,
    ["not_implemented"],
  ),
  "apps.deck.list": hostMethod(NoArgsSchema, AppsDeckSchema),
  "apps.deck.add": hostMethod(
    () => z.looseObject({ app_ref: AppRefSchema(), position: z.int().nonnegative().optional() }),
    AppsDeckChangeSchema,
  ),
  "apps.deck.remove": hostMethod(
    () => z.looseObject({ app_ref: AppRefSchema() }),
    AppsDeckChangeSchema,
  ),
  /** Exactly the pinned ids, in the new order. */
  "apps.deck.reorder": hostMethod(
    () => z.looseObject({ app_ids: z.array(AppRefSchema()) }),
    AppsDeckChangeSchema,
  ),
} as const;
