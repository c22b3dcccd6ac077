// Reading a template folder into memory and writing rendered files into the target. Rendering
// everything before the first write is what lets a refused init leave no debris.
import { chmod, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathExists } from "./target-folder.js";

/**
 * Files stored under another name in the template folders: npm drops `.gitignore` files from
 * published packages, so the templates keep it as `_gitignore`.
 */
export const RENAMED_FILES: Readonly<Record<string, string>> = { _gitignore: ".gitignore" };

export interface TemplateFile {
  /** Relative to the template (and the target), `/`-separated. */
  relative: string;
  content: string;
  /** Whether the template file has an execute bit (plugin scripts with a shebang). */
  executable: boolean;
}

/**
 * Every file under `source` in directory-walk order, with names (after {@link RENAMED_FILES})
 * and contents passed through `fill(text, templatePath)`.
 */
export async function readTemplateFiles(
  source: string,
  fill: (text: string, where: string) => string,
): Promise<TemplateFile[]> {
  const out: TemplateFile[] = [];
  const walk = async (folder: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const from = path.join(folder, entry.name);
      const name = fill(RENAMED_FILES[entry.name] ?? entry.name, from);
      const relative = prefix === "" ? name : `${prefix}/${name}`;
      if (entry.isDirectory()) {
        await walk(from, relative);
      } else if (entry.isFile()) {
        const [text, info] = await Promise.all([readFile(from, "utf8"), stat(from)]);
        out.push({ relative, content: fill(text, from), executable: (info.mode & 0o111) !== 0 });
      }
    }
  };
  await walk(source, "");
  return out;
}

export interface FileToWrite {
  relative: string;
  content: string;
  mode: number;
}

/**
 * Writes the files under `dir`, creating folders, and returns the ones that already existed.
 * `mode` only applies when a file is created; with `resetModes` an overwritten file gets it too.
 */
export async function writeTemplateFiles(
  dir: string,
  files: readonly FileToWrite[],
  options: { resetModes: boolean },
): Promise<string[]> {
  const overwritten: string[] = [];
  for (const file of files) {
    const target = path.join(dir, ...file.relative.split("/"));
    if (await pathExists(target)) overwritten.push(file.relative);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.content, { mode: file.mode });
    if (options.resetModes) await chmod(target, file.mode);
  }
  return overwritten;
}

/** Byte order of relative paths (not locale order), so listings are stable everywhere. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
