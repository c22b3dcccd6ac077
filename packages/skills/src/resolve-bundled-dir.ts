import { stat } from "node:fs/promises";
import { join } from "node:path";

/** S16: the environment variable that points the loader at a folder of skills. */
export const SKILLS_DIR_ENV = "MATRIX_SKILLS_DIR";

export interface BundledDirSources {
  /** Default `process.env`; `MATRIX_SKILLS_DIR` is tried first. */
  env?: NodeJS.ProcessEnv;
  /** The platform checkout: `<repoDir>/skills/` is tried second. */
  repoDir?: string;
  /** Skills shipped inside the installed platform package: the fallback. */
  packageDir?: string;
}

/** The bundled skills directory: the first of S16's sources that exists, else `undefined`. */
export async function resolveBundledSkillsDir(
  sources: BundledDirSources = {},
): Promise<string | undefined> {
  const env = sources.env ?? process.env;
  const candidates = [
    env[SKILLS_DIR_ENV],
    sources.repoDir !== undefined ? join(sources.repoDir, "skills") : undefined,
    sources.packageDir,
  ];
  for (const dir of candidates) {
    if (dir === undefined || dir === "") continue;
    try {
      if ((await stat(dir)).isDirectory()) return dir;
    } catch {
      // Not there: try the next source.
    }
  }
  return undefined;
}

/** S17: workspace skills live in `<workspace>/skills/`. */
export function workspaceSkillsDir(workspaceDir: string): string {
  return join(workspaceDir, "skills");
}
