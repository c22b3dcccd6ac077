// A committed `anna-tool-ids.js` (the id map bundles read, real-world-plugins.md "Apps") whose
// ids differ from the local executa.json files: `anna-app dev` serves a generated one, but a
// bundle deployed with the committed file calls the wrong ids.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ValidateContext } from "../context.js";

export const TOOL_IDS_FILE = "anna-tool-ids.js";

/** A committed `anna-tool-ids.js` whose ids differ from the local executa.json files. */
export async function staleToolIds(
  ctx: ValidateContext,
  handleIds: ReadonlyMap<string, string | undefined>,
): Promise<void> {
  const file = path.join(ctx.paths.bundle, TOOL_IDS_FILE);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return;
  }
  const lines = text.split("\n");
  lines.forEach((line, lineIndex) => {
    for (const match of line.matchAll(/["']?([\w.-]+)["']?\s*:\s*["']([^"']+)["']/g)) {
      const handle = match[1] as string;
      const committed = match[2] as string;
      const local = handleIds.get(handle);
      if (local === undefined || local === committed) continue;
      ctx.reportAt(
        "cross-file",
        file,
        { line: lineIndex + 1, column: match.index + 1 },
        {
          severity: "warning",
          code: "bundle.tool_ids_stale",
          message: `${TOOL_IDS_FILE} maps "${handle}" to "${committed}" but the local executa's tool_id is "${local}"; anna-app dev serves a generated map, but a bundle deployed with this file calls the wrong id — delete it or regenerate it`,
        },
      );
    }
  });
}
