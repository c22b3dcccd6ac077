// `dev.fixtures` (L5014–L5019): globs, relative to the manifest folder, of JSONL recordings that
// `anna-app dev` and `fixture verify` replay. A glob whose folder is missing is almost always a
// typo or a moved folder; the platform never reads the dev block, so it is a warning. A folder
// that exists but holds no recording yet is a project that has not recorded a session: quiet,
// so a fresh scaffold (which ships `fixtures/` for its own recordings) passes `--strict`.
import path from "node:path";
import type { AppManifest } from "@anna-ai/app-schema";
import type { ValidateContext } from "../context.js";
import { relativePath, walkFiles } from "../walk.js";

/** `*` and `?` within a path segment, `**` across segments; everything else literal. */
export function globToRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string;
    if (ch === "*") {
      if (glob[i + 1] === "*") {
        // `**/` matches zero or more folders; a trailing `**` anything below.
        out += glob[i + 2] === "/" ? "(?:.*/)?" : ".*";
        i += glob[i + 2] === "/" ? 2 : 1;
      } else out += "[^/]*";
    } else if (ch === "?") out += "[^/]";
    else out += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** The folders of `glob` before its first wildcard: `fixtures/**\/*.jsonl` → `fixtures`. */
export function staticPrefix(glob: string): string {
  const segments = glob.split("/");
  const folders: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (/[*?[{]/.test(segment)) break;
    folders.push(segment);
  }
  return folders.length === 0 ? "." : folders.join("/") || "/";
}

export async function checkDevFixtures(ctx: ValidateContext, manifest: AppManifest): Promise<void> {
  const globs = manifest.dev?.fixtures ?? [];
  if (globs.length === 0) return;
  const base = path.dirname(ctx.paths.manifest);
  const files = (await walkFiles(base, { accept: () => true })).map((file) =>
    relativePath(base, file),
  );
  globs.forEach((glob, index) => {
    const normalized = glob.replace(/^\.\//, "");
    const pattern = globToRegExp(normalized);
    if (files.some((file) => pattern.test(file))) return;
    const folder = staticPrefix(normalized);
    if (folder !== "." && files.some((file) => file.startsWith(`${folder}/`))) return;
    ctx.report("cross-file", ctx.paths.manifest, `/dev/fixtures/${index}`, {
      severity: "warning",
      code: "dev.fixtures.no_match",
      message: `dev.fixtures glob "${glob}" matches no file (globs are relative to the manifest's folder); anna-app dev and fixture verify will replay nothing for it — fix the pattern or record a fixture there`,
    });
  });
}
