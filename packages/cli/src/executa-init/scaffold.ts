// `scaffoldExecuta`: validates the names, renders every file of a template in memory, then
// writes them. Nothing is written when anything is wrong, so a refused init leaves no debris.
import { chmod, lstat, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  defaultToolId,
  displayName,
  pythonModule,
  slugProblem,
  suggestSlug,
  toolIdProblem,
} from "./names.js";
import { fillPlaceholders, type PlaceholderValues } from "./placeholders.js";
import { sdkDependency } from "./sdk-dependency.js";
import { cliPackageRoot, RENAMED_FILES, templatesRoot, type ExecutaTemplate } from "./templates.js";

/** Entries that do not make a folder "non-empty": a fresh `git init` is fine to scaffold into. */
const IGNORED_ENTRIES = new Set([".git", ".DS_Store"]);
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

interface RenderedFile {
  relative: string;
  content: string;
  executable: boolean;
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

  const existing = await existingEntries(dir);
  if (existing.length > 0 && options.force !== true) {
    throw new ScaffoldError(
      "TARGET_NOT_EMPTY",
      `${dir} is not empty (${describeEntries(existing)}); pass --force to write the template into it`,
    );
  }

  const values: PlaceholderValues = {
    slug,
    tool_id: toolId,
    module: pythonModule(slug),
    display_name: displayName(slug),
    sdk_dependency: jsonStringBody(
      options.sdkDependency ?? (await sdkDependency(cliPackageRoot(), dir)),
    ),
  };
  const source = path.join(options.templatesDir ?? templatesRoot(), options.template);
  const rendered = await renderTemplate(source, values);

  const overwritten: string[] = [];
  for (const file of rendered) {
    const target = path.join(dir, ...file.relative.split("/"));
    if (await exists(target)) overwritten.push(file.relative);
    await mkdir(path.dirname(target), { recursive: true });
    const mode = file.executable ? EXECUTABLE_MODE : FILE_MODE;
    await writeFile(target, file.content, { mode });
    // `mode` only applies when the file is created; an overwritten file keeps its old one.
    await chmod(target, mode);
  }
  return {
    dir,
    template: options.template,
    slug,
    toolId,
    files: rendered.map((f) => f.relative),
    overwritten,
  };
}

/** Every file of the template, names and contents filled in, sorted by path. */
async function renderTemplate(source: string, values: PlaceholderValues): Promise<RenderedFile[]> {
  const out: RenderedFile[] = [];
  const walk = async (folder: string, prefix: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true });
    for (const entry of entries) {
      const from = path.join(folder, entry.name);
      const name = fillPlaceholders(RENAMED_FILES[entry.name] ?? entry.name, values, from);
      const relative = prefix === "" ? name : `${prefix}/${name}`;
      if (entry.isDirectory()) {
        await walk(from, relative);
      } else if (entry.isFile()) {
        const [text, info] = await Promise.all([readFile(from, "utf8"), stat(from)]);
        out.push({
          relative,
          content: fillPlaceholders(text, values, from),
          executable: (info.mode & 0o111) !== 0,
        });
      }
    }
  };
  await walk(source, "");
  return out.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}

/** Entries of the target that make it non-empty; [] when it does not exist yet. */
async function existingEntries(dir: string): Promise<string[]> {
  let info;
  try {
    info = await lstat(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  if (!info.isDirectory() && !(info.isSymbolicLink() && (await stat(dir)).isDirectory())) {
    throw new ScaffoldError("TARGET_NOT_DIR", `${dir} exists and is not a directory`);
  }
  const entries = await readdir(dir);
  return entries.filter((e) => !IGNORED_ENTRIES.has(e)).sort();
}

function describeEntries(entries: string[]): string {
  const shown = entries.slice(0, 3).join(", ");
  return entries.length > 3 ? `${shown} and ${entries.length - 3} more` : shown;
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

/** The value as it must appear between the quotes of a JSON string. */
function jsonStringBody(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}
