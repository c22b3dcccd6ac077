// `scaffoldApp`: checks the names and the target, renders the app layers in memory, writes them,
// then generates the bundled executa with `executa init`'s scaffolder into executas/<handle>/.
// Every refusal happens before the first write, so a refused init leaves no debris.
import path from "node:path";
import { toolIdProblem } from "../executa-init/names.js";
import { jsonStringBody, scaffoldExecuta, ScaffoldError } from "../executa-init/scaffold.js";
import { cliPackageRoot, type ExecutaTemplate } from "../executa-init/templates.js";
import { CLI_PACKAGE_NAME, packageDependency } from "../scaffold/package-dependency.js";
import { checkTargetFolder } from "../scaffold/target-folder.js";
import { comparePaths, writeTemplateFiles } from "../scaffold/template-files.js";
import {
  APP_TEMPLATE_SPECS,
  appTemplatesRoot,
  type AppTemplate,
  type AppTemplateSpec,
} from "./app-templates.js";
import {
  appDisplayName,
  appSlugProblem,
  appToolId,
  executaHandle,
  skillName,
  suggestAppSlug,
} from "./names.js";
import { EXECUTA_BUILDS, EXECUTA_CHECKS } from "./next-steps.js";
import type { AppPlaceholders } from "./placeholders.js";
import { renderLayers } from "./render-layers.js";

const FILE_MODE = 0o644;

export type InitErrorCode = "INVALID_SLUG" | "TARGET_NOT_EMPTY" | "TARGET_NOT_DIR";

/** A refusal the user can fix: the CLI prints the message as its one line (exit 2). */
export class InitError extends Error {
  readonly code: InitErrorCode;

  constructor(code: InitErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InitError";
    this.code = code;
  }
}

export interface ScaffoldAppOptions {
  /** Target folder; created when missing. */
  dir: string;
  template: AppTemplate;
  /** Default: the folder's base name (R164). */
  slug?: string;
  /** Write into a non-empty folder, overwriting files of the same name (others are kept). */
  force?: boolean;
  /** Where the app layers live; default the CLI package's `templates/app`. */
  templatesDir?: string;
  /** Passed to the executa scaffolder (ts template's SDK dependency). */
  sdkDependency?: string;
  /** The `@anna-ai/cli` dev dependency of the app (and its executa); default found from the CLI. */
  cliDependency?: string;
}

export interface ScaffoldAppResult {
  dir: string;
  template: AppTemplate;
  slug: string;
  /** The `bundled_executas` handle and folder name under `executas/`. */
  handle: string;
  toolId: string;
  executaTemplate: ExecutaTemplate;
  /** `executas/<handle>`, relative to `dir`. */
  executaDir: string;
  /** The bundled skill's name (skill template), else undefined. */
  skill: string | undefined;
  /** Written files, relative to `dir`, `/`-separated, sorted. */
  files: string[];
  /** Files that existed and were overwritten (with --force). */
  overwritten: string[];
}

export async function scaffoldApp(options: ScaffoldAppOptions): Promise<ScaffoldAppResult> {
  const dir = path.resolve(options.dir);
  const spec = APP_TEMPLATE_SPECS[options.template];
  const slug = options.slug ?? path.basename(dir);
  const problem = appSlugProblem(slug);
  if (problem !== undefined) {
    const origin = options.slug === undefined ? " (the folder name)" : "";
    const guess = suggestAppSlug(slug);
    throw new InitError(
      "INVALID_SLUG",
      `slug '${slug}'${origin} ${problem}; pass --slug ${guess ?? "<slug>"}`,
    );
  }
  const handle = executaHandle(slug);
  const toolId = appToolId(handle);
  // Derived from a valid slug, so this only fails on a bug in executaHandle.
  const toolIdIssue = toolIdProblem(toolId);
  if (toolIdIssue !== undefined) throw new Error(`derived tool_id '${toolId}' ${toolIdIssue}`);

  await checkTargetFolder(dir, options.force, (code, message) => new InitError(code, message));

  const executaDir = `executas/${handle}`;
  const skill = spec.skill ? skillName(handle) : undefined;
  const cliDependency =
    options.cliDependency ?? (await packageDependency(CLI_PACKAGE_NAME, cliPackageRoot(), dir));
  const values = {
    ...placeholders({ slug, handle, toolId, skill, spec, executaDir }),
    cli_dependency: jsonStringBody(cliDependency),
  };
  const rendered = await renderLayers(
    options.templatesDir ?? appTemplatesRoot(),
    spec.layers,
    values,
  );

  const files = rendered.map((file) => file.relative);
  const overwritten = await writeTemplateFiles(
    dir,
    rendered.map((file) => ({ ...file, mode: FILE_MODE })),
    { resetModes: false },
  );

  let executa;
  try {
    executa = await scaffoldExecuta({
      dir: path.join(dir, ...executaDir.split("/")),
      template: spec.executa,
      slug: handle,
      toolId,
      // The project folder was checked above; the executa folder is part of what init writes.
      force: true,
      ...(options.sdkDependency !== undefined ? { sdkDependency: options.sdkDependency } : {}),
      // The executa sits one folder deeper: a relative file: path is computed for it anew.
      ...(options.cliDependency !== undefined ? { cliDependency: options.cliDependency } : {}),
    });
  } catch (error) {
    if (error instanceof ScaffoldError) {
      throw new InitError("TARGET_NOT_DIR", error.message, { cause: error });
    }
    throw error;
  }
  files.push(...executa.files.map((f) => `${executaDir}/${f}`));
  overwritten.push(...executa.overwritten.map((f) => `${executaDir}/${f}`));

  return {
    dir,
    template: options.template,
    slug,
    handle,
    toolId,
    executaTemplate: spec.executa,
    executaDir,
    skill,
    files: files.sort(comparePaths),
    overwritten: overwritten.sort(comparePaths),
  };
}

function placeholders(input: {
  slug: string;
  handle: string;
  toolId: string;
  skill: string | undefined;
  spec: AppTemplateSpec;
  executaDir: string;
}): AppPlaceholders {
  const { slug, handle, toolId, skill, spec, executaDir } = input;
  const name = appDisplayName(slug);
  return {
    slug,
    display_name: name,
    handle,
    tool_id: toolId,
    // Only the skill layer names a file after it; the others never reference it.
    skill_name: skill ?? "",
    executa_kind:
      spec.executa === "ts" ? "TypeScript on @anna-ai/executa-sdk" : "Python, standard library",
    executa_steps: [`cd ${executaDir}`, ...EXECUTA_CHECKS[spec.executa]].join("\n"),
    validate_note: EXECUTA_BUILDS[spec.executa]
      ? `\nBuild the executa first (see "Test it"): validate starts each executa as \`anna-app dev\`\nwould, and until \`${executaDir}/dist/main.js\` exists it reports that it cannot.\n`
      : "",
    skill_row:
      skill === undefined
        ? ""
        : `| \`executas/${skill}/SKILL.md\` | a skill that teaches the assistant when and how to use the app |\n`,
    skill_section:
      skill === undefined
        ? ""
        : [
            "",
            "## The skill",
            "",
            `\`executas/${skill}/SKILL.md\` is loaded into the assistant's prompt while the app is in use.`,
            "`anna-app dev` skips folders that hold only a `SKILL.md`; `anna-app validate` checks it.",
            "Skills are published on their own: mint a skill id and paste the body in the console.",
            "",
          ].join("\n"),
  };
}
