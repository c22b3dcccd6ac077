// Reads template layers into memory with their placeholders filled. Later layers replace files
// of the same path, so a layer can override one file (the skill template's manifest.json).
import path from "node:path";
import { readTemplateFiles } from "../scaffold/template-files.js";
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
  const fill = (text: string, where: string): string => fillAppPlaceholders(text, values, where);
  for (const layer of layers) {
    for (const { relative, content } of await readTemplateFiles(path.join(root, layer), fill)) {
      files.set(relative, { relative, content });
    }
  }
  return [...files.values()];
}
