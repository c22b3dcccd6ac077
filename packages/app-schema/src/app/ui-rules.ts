import { type AppIssue, appIssue } from "./issues.js";
import { duplicateValueIssues } from "./manifest-rules.js";
import { formatSpecMessage, SPEC_MESSAGES } from "./spec-messages.js";
import { type UiSection } from "./ui-section.js";
import { UI_VIEWS_MAX, UI_VIEWS_MIN, type UiSize } from "./ui-view.js";
import { quote } from "./text.js";

type Path = (string | number)[];

function sizeText(size: UiSize): string {
  return `${size.w}×${size.h}`;
}

/**
 * Rules over `ui` that span fields: the views count (with the platform's message), unique names,
 * one default, sizes within [min_size, max_size], form factors and mobile entries, `state_merge`,
 * and CSP overrides that would break inline styles.
 */
export function uiSectionRules(ui: UiSection): AppIssue[] {
  const out: AppIssue[] = [];
  const views = ui.views;
  if (views.length < UI_VIEWS_MIN || views.length > UI_VIEWS_MAX) {
    out.push(
      appIssue(
        "error",
        "ui.views.count",
        ["ui", "views"],
        `ui.views has ${views.length} views; it needs between ${UI_VIEWS_MIN} and ${UI_VIEWS_MAX}`,
        SPEC_MESSAGES.uiViewsCount.text,
      ),
    );
  }
  const names = new Map<string, number>();
  const defaults: number[] = [];
  views.forEach((view, index) => {
    const first = names.get(view.name);
    if (first !== undefined) {
      out.push(
        appIssue(
          "error",
          "ui.views.duplicate_name",
          ["ui", "views", index, "name"],
          `view name ${quote(view.name)} is already used by /ui/views/${first}; view names must be unique`,
        ),
      );
    } else names.set(view.name, index);
    if (view.default === true) defaults.push(index);
    const { min_size: min, default_size: preferred, max_size: max } = view;
    const at = (field: string): Path => ["ui", "views", index, field];
    if (min && max && (min.w > max.w || min.h > max.h)) {
      out.push(
        appIssue(
          "error",
          "ui.views.min_above_max",
          at("min_size"),
          `view "${view.name}": min_size ${sizeText(min)} is larger than max_size ${sizeText(max)}`,
        ),
      );
    }
    if (preferred && min && (preferred.w < min.w || preferred.h < min.h)) {
      out.push(
        appIssue(
          "error",
          "ui.views.default_below_min",
          at("default_size"),
          `view "${view.name}": default_size ${sizeText(preferred)} is smaller than min_size ${sizeText(min)}; it must lie within [min_size, max_size]`,
          formatSpecMessage("viewDefaultSizeBelowMin", { name: view.name }).text,
        ),
      );
    }
    if (preferred && max && (preferred.w > max.w || preferred.h > max.h)) {
      out.push(
        appIssue(
          "error",
          "ui.views.default_above_max",
          at("default_size"),
          `view "${view.name}": default_size ${sizeText(preferred)} is larger than max_size ${sizeText(max)}; it must lie within [min_size, max_size]`,
        ),
      );
    }
  });
  if (defaults.length > 1) {
    out.push(
      appIssue(
        "error",
        "ui.views.multiple_defaults",
        ["ui", "views", defaults[1] ?? 0, "default"],
        `views ${defaults.map((i) => quote(views[i]?.name)).join(", ")} all set default: true; at most one view may`,
        SPEC_MESSAGES.uiViewsOneDefault.text,
      ),
    );
  }
  if (defaults.length === 0 && views.length > 0) {
    out.push(
      appIssue(
        "warning",
        "ui.views.no_default",
        ["ui", "views"],
        'no view sets "default": true; open_app_view without a view name has nothing to open — mark the main view as default',
      ),
    );
  }
  const factors = ui.form_factors ?? [];
  duplicateValueIssues(factors, ["ui", "form_factors"], "form factor", out);
  if (factors.length === 0 && ui.form_factors !== undefined && ui.form_factors !== null) {
    out.push(
      appIssue(
        "warning",
        "ui.form_factors.empty",
        ["ui", "form_factors"],
        'an empty form_factors means the default ["desktop"]; list the containers the app supports',
      ),
    );
  }
  const mobile = factors.includes("mobile");
  views.forEach((view, index) => {
    if (!mobile && view.mobile_entry !== undefined && view.mobile_entry !== null) {
      out.push(
        appIssue(
          "warning",
          "ui.views.mobile_entry_unused",
          ["ui", "views", index, "mobile_entry"],
          `view "${view.name}" has a mobile_entry but ui.form_factors does not include "mobile", so it is never served; add "mobile" to form_factors`,
        ),
      );
    }
  });
  if (
    ui.state_merge !== undefined &&
    ui.state_merge !== null &&
    ui.state_merge !== "last_writer_wins"
  ) {
    out.push(
      appIssue(
        "warning",
        "ui.state_merge",
        ["ui", "state_merge"],
        `state_merge ${quote(ui.state_merge)} is not a known policy; the only one is "last_writer_wins" (reserved)`,
      ),
    );
  }
  cspRules(ui, out);
  return out;
}

/**
 * Inventory Z15: the base `style-src` has `'unsafe-inline'`, and browsers ignore it once a hash or
 * nonce is present, so such an override silently breaks inline styles.
 */
function cspRules(ui: UiSection, out: AppIssue[]): void {
  const overrides = ui.csp_overrides ?? {};
  (overrides["style-src"] ?? []).forEach((value, index) => {
    if (!/^'(sha256-|nonce-)/.test(value)) return;
    out.push(
      appIssue(
        "warning",
        "ui.csp.style_src_disables_inline",
        ["ui", "csp_overrides", "style-src", index],
        `${value} in style-src makes browsers ignore the base policy's 'unsafe-inline', so inline styles stop working; drop it unless every inline style is hashed`,
      ),
    );
  });
}
