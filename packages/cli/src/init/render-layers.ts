// Reads template layers into memory with their placeholders filled. Later layers replace files
// of the same path, so a layer can override one file (the skill template's manifest.json).
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { RENAMED_FILES } from "../executa-init/templates.js";
import { fillAppPlaceholders, type AppPlaceholders } from "./placeholders.js";

export interface RenderedFile {
  /** Relative to the project, `/`-separated. */
  relative: string;
  content: string;
}

export async function renderLayers(
  root: string,
  layers: readonly string[],
  values: AppPlaceholders,
): Promise<RenderedFile[]> {
  const files = new Map<string, RenderedFile>();
  const walk = async (folder: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const from = path.join(folder, entry.name);
      const name = fillAppPlaceholders(RENAMED_FILES[entry.name] ?? entry.name, values, from);
      const relative = prefix === "" ? name : `${prefix}/${name}`;
      if (entry.isDirectory()) await walk(from, relative);
      else if (entry.isFile()) {
        const content = fillAppPlaceholders(await readFile(from, "utf8"), values, from);
        files.set(relative, { relative, content });
      }
    }
  };
  for (const layer of layers) await walk(path.join(root, layer), "");
  return [...files.values()];
}
