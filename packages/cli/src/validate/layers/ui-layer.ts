// Layer 2, UI static checks (L4667): the rules of `validate_ui_section_static` (from
// @anna-ai/app-schema) plus what needs the bundle folder — the entry, each view's entry,
// mobile entry and icon present, and the mobile review rules that can be grepped (L6858–L6869).
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { bundlePathFile, formatSpecMessage, formFactorsOf } from "@anna-ai/app-schema";
import type { ValidateContext } from "../context.js";
import type { ProjectState } from "../project-state.js";
import { walkFiles } from "../walk.js";

/** Bundle files read for the mobile greps; bigger ones are assets, not markup or styles. */
const MOBILE_GREP_MAX_BYTES = 4 * 1024 * 1024;
const VIEWPORT_META = /<meta\s[^>]*name\s*=\s*["']?viewport/i;
const SAFE_AREA = /safe-area-inset-|--anna-safe-area-/;

export function emitPending(
  ctx: ValidateContext,
  state: ProjectState,
  layer: "ui" | "cross-file",
): void {
  for (const { file, issue } of state.pending.get(layer) ?? []) {
    ctx.report(layer, file, issue.pointer, {
      severity: issue.severity,
      code: issue.code,
      message: issue.message,
      ...(issue.specMessage === undefined ? {} : { specMessage: issue.specMessage }),
    });
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

export async function runUiLayer(ctx: ValidateContext, state: ProjectState): Promise<void> {
  emitPending(ctx, state, "ui");
  const ui = state.manifest?.ui;
  if (ui === undefined || ui === null) return;
  const manifestFile = ctx.paths.manifest;
  const bundleDir = ctx.paths.bundle;
  const bundleRel = ctx.rel(bundleDir);
  if (!(await isDirectory(bundleDir))) {
    ctx.report("ui", manifestFile, "/ui/bundle/entry", {
      severity: ctx.paths.bundleExplicit ? "error" : "warning",
      code: "ui.bundle.dir_missing",
      message: ctx.paths.bundleExplicit
        ? `the bundle folder ${bundleRel} given with --bundle does not exist`
        : `no bundle folder at ${bundleRel}, so entries and icons were not checked; build the bundle first or pass --bundle <dir>`,
    });
    return;
  }

  const entry = bundlePathFile(ui.bundle.entry);
  if (!(await isFile(path.join(bundleDir, entry)))) {
    ctx.report("ui", manifestFile, "/ui/bundle/entry", {
      severity: "error",
      code: "ui.bundle.entry_missing",
      message: `ui.bundle.entry "${entry}" is not in the bundle (${bundleRel}/${entry} does not exist); the upload is refused at bundle/finalize — fix the path or build the bundle`,
      specMessage: formatSpecMessage("uiBundleEntryNotInFileMap", { path: ui.bundle.entry }).text,
    });
  }

  const mobile = formFactorsOf(ui).includes("mobile");
  const mobileEntries = new Map<string, string>();
  for (const [index, view] of ui.views.entries()) {
    const fields = [
      ["entry", view.entry],
      ["mobile_entry", view.mobile_entry],
      ["icon", view.icon],
    ] as const;
    for (const [field, value] of fields) {
      if (value === undefined || value === null) continue;
      const file = bundlePathFile(value);
      if (await isFile(path.join(bundleDir, file))) continue;
      ctx.report("ui", manifestFile, `/ui/views/${index}/${field}`, {
        severity: "warning",
        code: `ui.views.${field}_missing`,
        message: `view "${view.name}": ${field} "${file}" is not in the bundle (${bundleRel}/${file} does not exist); the platform accepts the app but the ${field === "icon" ? "icon will not load" : "view will not load"}`,
      });
    }
    if (mobile) {
      const served = bundlePathFile(view.mobile_entry ?? view.entry ?? ui.bundle.entry);
      mobileEntries.set(
        served,
        view.mobile_entry ? `/ui/views/${index}/mobile_entry` : `/ui/views/${index}`,
      );
    }
  }
  if (mobile) await mobileChecks(ctx, bundleDir, mobileEntries);
}

/** Mobile review rules a grep can check (L6864–L6869). */
async function mobileChecks(
  ctx: ValidateContext,
  bundleDir: string,
  entries: ReadonlyMap<string, string>,
): Promise<void> {
  const manifestFile = ctx.paths.manifest;
  for (const [file, pointer] of entries) {
    let html: string;
    try {
      html = await readFile(path.join(bundleDir, file), "utf8");
    } catch {
      continue;
    }
    const match = VIEWPORT_META.exec(html);
    if (match === null) continue;
    const before = html.slice(0, match.index);
    const line = before.split("\n").length;
    const column = match.index - before.lastIndexOf("\n");
    ctx.report("ui", manifestFile, pointer, {
      severity: "warning",
      code: "ui.mobile.viewport_meta",
      message: `${ctx.rel(path.join(bundleDir, file))} sets its own <meta name="viewport">; the mobile shell injects the right one and review rejects an override — remove it`,
      related: [{ file: ctx.rel(path.join(bundleDir, file)), line, column }],
    });
  }
  const candidates = await walkFiles(bundleDir, {
    accept: (name) => /\.(css|html?|m?js|jsx|tsx?)$/.test(name),
  });
  // Stylesheets first: that is where safe-area padding usually is, and scripts can be megabytes.
  const rank = (file: string): number =>
    file.endsWith(".css") ? 0 : /\.html?$/.test(file) ? 1 : 2;
  for (const file of candidates.sort((a, b) => rank(a) - rank(b))) {
    try {
      if ((await stat(file)).size > MOBILE_GREP_MAX_BYTES) continue;
      if (SAFE_AREA.test(await readFile(file, "utf8"))) return;
    } catch {
      continue;
    }
  }
  ctx.report("ui", manifestFile, "/ui/form_factors", {
    severity: "warning",
    code: "ui.mobile.safe_area",
    message:
      'form_factors includes "mobile" but nothing in the bundle uses env(safe-area-inset-*) or the --anna-safe-area-* variables; mobile review requires safe-area padding (the variables are 0 on desktop, so they are always safe to apply)',
  });
}
