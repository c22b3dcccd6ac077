// `scaffoldExecuta`: validates the names, renders every file of a template in memory, then
// writes them. Nothing is written when anything is wrong, so a refused init leaves no debris.
import path from "node:path";
import { checkTargetFolder } from "../scaffold/target-folder.js";
import { comparePaths, readTemplateFiles, writeTemplateFiles } from "../scaffold/template-files.js";
import {
  defaultToolId,
  displayName,
  pythonModule,
  slugProblem,
  suggestSlug,
  toolIdProblem,
} from "./names.js";
import { fillPlaceholders, type PlaceholderValues } from "./placeholders.js";
import {
  CLI_PACKAGE_NAME,
  packageDependency,
  SDK_PACKAGE_NAME,
} from "../scaffold/package-dependency.js";
import { cliPackageRoot, templatesRoot, type ExecutaTemplate } from "./templates.js";

/** Mode of generated files whose template is executable (plugin scripts with a shebang). */
const EXECUTABLE_MODE = 0o755;
const FILE_MODE = 0o644;

export type ScaffoldErrorCode =
  "INVALID_SLUG" | "INVALID_TOOL_ID" | "TARGET_NOT_EMPTY" | "TARGET_NOT_DIR";

/** A refusal the user can fix: the CLI prints the message as its one line (exit 2). */
export class ScaffoldError extends Error {
  readonly code: ScaffoldErrorCode;

  constructor(code: ScaffoldErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ScaffoldError";
    this.code = code;
  }
}

export interface ScaffoldOptions {
  /** Absolute target folder; created when missing. */
  dir: string;
  template: ExecutaTemplate;
  /** Default: the folder's base name. */
  slug?: string;
  /** Default: `tool-dev-<slug>`. */
  toolId?: string;
  /** Write into a non-empty folder, overwriting files of the same name (others are kept). */
  force?: boolean;
  /** Where templates live; default the CLI package's `templates/executa`. */
  templatesDir?: string;
  /** Value for the ts template's SDK dependency; default found from the CLI's location. */
  sdkDependency?: string;
  /** Value for the `@anna-ai/cli` dev dependency (node, ts); default found likewise. */
  cliDependency?: string;
}

export interface ScaffoldResult {
  dir: string;
  template: ExecutaTemplate;
  slug: string;
  toolId: string;
  /** Written files, relative to `dir`, with `/` separators, sorted. */
  files: string[];
  /** Files that existed and were overwritten (with --force). */
  overwritten: string[];
}

export async function scaffoldExecuta(options: ScaffoldOptions): Promise<ScaffoldResult> {
  const dir = path.resolve(options.dir);
  const slug = options.slug ?? path.basename(dir);
  const slugIssue = slugProblem(slug);
  if (slugIssue !== undefined) {
    const origin = options.slug === undefined ? " (the folder name)" : "";
    const guess = suggestSlug(slug);
    throw new ScaffoldError(
      "INVALID_SLUG",
      `slug '${slug}'${origin} ${slugIssue}; pass --slug ${guess ?? "<kebab-case-name>"}`,
    );
  }
  const toolId = options.toolId ?? defaultToolId(slug);
  const toolIdIssue = toolIdProblem(toolId);
  if (toolIdIssue !== undefined) {
    throw new ScaffoldError("INVALID_TOOL_ID", `--tool-id '${toolId}' ${toolIdIssue}`);
  }

  await checkTargetFolder(dir, options.force, (code, message) => new ScaffoldError(code, message));

  const values: PlaceholderValues = {
    slug,
    tool_id: toolId,
    module: pythonModule(slug),
    display_name: displayName(slug),
    sdk_dependency: jsonStringBody(
      options.sdkDependency ?? (await packageDependency(SDK_PACKAGE_NAME, cliPackageRoot(), dir)),
    ),
    cli_dependency: jsonStringBody(
      options.cliDependency ?? (await packageDependency(CLI_PACKAGE_NAME, cliPackageRoot(), dir)),
    ),
  };
  const source = path.join(options.templatesDir ?? templatesRoot(), options.template);
  const fill = (text: string, where: string): string => fillPlaceholders(text, values, where);
  const rendered = (await readTemplateFiles(source, fill)).sort((a, b) =>
    comparePaths(a.relative, b.relative),
  );

  const overwritten = await writeTemplateFiles(
    dir,
    rendered.map((file) => ({
      relative: file.relative,
      content: file.content,
      mode: file.executable ? EXECUTABLE_MODE : FILE_MODE,
    })),
    // A template's execute bit wins over the mode of a file --force overwrites.
    { resetModes: true },
  );
  return {
    dir,
    template: options.template,
    slug,
    toolId,
    files: rendered.map((f) => f.relative),
    overwritten,
  };
}

/** The value as it must appear between the quotes of a JSON string. */
export function jsonStringBody(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}
