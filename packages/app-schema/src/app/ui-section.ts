import { z } from "zod";
import { CspOverridesSchema } from "./ui-csp.js";
import { UiBundleSchema } from "./ui-bundle.js";
import { UiHostApiSchema } from "./ui-host-api.js";
import { UI_VIEWS_MAX, UI_VIEWS_MIN, UiViewSchema } from "./ui-view.js";

/** `ui` (`UiManifestSection`, L5616–L5627, R91–R93), `extra="forbid"`. */

export const FORM_FACTORS = Object.freeze(["desktop", "mobile"] as const);
export type FormFactor = (typeof FORM_FACTORS)[number];
export const DEFAULT_FORM_FACTORS: readonly FormFactor[] = Object.freeze(["desktop"]);

/** Reserved; the only documented policy (L5627). */
export const STATE_MERGE_POLICIES = Object.freeze(["last_writer_wins"] as const);
export const DEFAULT_STATE_MERGE = "last_writer_wins";

export const UiSectionSchema = z.strictObject({
  bundle: UiBundleSchema,
  /** 1–16 views; the count is checked with the platform's message (see `validateAppManifest`). */
  views: z.array(UiViewSchema).meta({ minItems: UI_VIEWS_MIN, maxItems: UI_VIEWS_MAX }),
  /** Containers the app supports; `"mobile"` lists it in the mobile launcher (L6828–L6856). */
  form_factors: z.array(z.enum(FORM_FACTORS)).nullish(),
  /** Absent means only the always-granted `window` namespace. */
  host_api: UiHostApiSchema.nullish(),
  csp_overrides: CspOverridesSchema.nullish(),
  /** Reserved; other values are kept and warned about. */
  state_merge: z.string().nullish(),
});
export type UiSection = z.infer<typeof UiSectionSchema>;

/** `form_factors` with its default applied. */
export function formFactorsOf(ui: Pick<UiSection, "form_factors">): readonly FormFactor[] {
  const declared = ui.form_factors;
  return declared === undefined || declared === null || declared.length === 0
    ? DEFAULT_FORM_FACTORS
    : declared;
}
