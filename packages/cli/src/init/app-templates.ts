// The `anna-app init` templates. Each is one or more layers of files under
// packages/cli/templates/app/<layer>/ (later layers replace files of earlier ones) plus one
// executa generated through `executa init`'s own scaffolder, so the plugin templates live in one
// place (templates/executa/).
import { fileURLToPath } from "node:url";
import type { ExecutaTemplate } from "../executa-init/templates.js";

export const APP_TEMPLATES = ["minimal", "ts", "skill"] as const;
export type AppTemplate = (typeof APP_TEMPLATES)[number];
/** R164: minimal unless --template says otherwise. */
export const DEFAULT_APP_TEMPLATE: AppTemplate = "minimal";

export interface AppTemplateSpec {
  /** Folders under templates/app/, applied in order. */
  layers: readonly string[];
  /** The `executa init` template generated into `executas/<handle>/`. */
  executa: ExecutaTemplate;
  /** Whether the app also bundles a skill, `executas/<handle>-guide/SKILL.md`. */
  skill: boolean;
  /** One line for `--help`. */
  summary: string;
}

export const APP_TEMPLATE_SPECS: Readonly<Record<AppTemplate, AppTemplateSpec>> = {
  minimal: {
    layers: ["base"],
    executa: "python",
    skill: false,
    summary: "schema-2 manifest, app.json, a bundle calling tools.invoke/storage, a Python executa",
  },
  ts: {
    layers: ["base"],
    executa: "ts",
    skill: false,
    summary: "the minimal app with its executa on @anna-ai/executa-sdk (npm install + build)",
  },
  skill: {
    layers: ["base", "skill"],
    executa: "python",
    skill: true,
    summary: "the minimal app plus a SKILL.md that teaches the assistant to use its tool",
  },
};

/**
 * The folder holding one folder per layer. Resolved from this module, which sits at `src/init/`
 * in the source tree and `dist/init/` once built: both two levels below the package root.
 */
export function appTemplatesRoot(): string {
  return fileURLToPath(new URL("../../templates/app/", import.meta.url));
}
