import { existsSync } from "node:fs";
import { dirname, join, parse, sep } from "node:path";
import { fileURLToPath } from "node:url";

// This kit's own frames, whether the stack shows the built file or (source-mapped) its source.
const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const KIT_DIRS = [join(PACKAGE_ROOT, "dist", "test-kit"), join(PACKAGE_ROOT, "src", "test-kit")];
/** `  at fn (/abs/file.ts:12:3)`, `  at /abs/file.ts:12:3`, `  at file:///abs/file.ts:12:3`. */
const FRAME_PATH = /(?:\(|\s)((?:file:\/\/)?\/[^():]+|[A-Za-z]:\\[^():]+):\d+:\d+\)?$/;

function isProjectDir(dir: string): boolean {
  return existsSync(join(dir, "app.json")) || existsSync(join(dir, "manifest.json"));
}

/** The nearest folder at or above `start` holding `app.json` or `manifest.json`. */
function nearestProject(start: string): string | undefined {
  let dir = start;
  for (;;) {
    if (isProjectDir(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir || dir === parse(dir).root) return undefined;
    dir = parent;
  }
}

/** The file of the first stack frame outside this kit and `node_modules` (the test calling us). */
function callerFile(stack: string | undefined): string | undefined {
  for (const line of (stack ?? "").split("\n").slice(1)) {
    const match = FRAME_PATH.exec(line.trim());
    const raw = match?.[1];
    if (raw === undefined) continue;
    const file = raw.startsWith("file://") ? fileURLToPath(raw) : raw;
    if (KIT_DIRS.some((dir) => file.startsWith(dir + sep))) continue;
    if (file.includes(`${sep}node_modules${sep}`)) continue;
    return file;
  }
  return undefined;
}

/**
 * The app folder for a manifest given as an object (it carries no path): the current directory
 * when it is an app (vitest started in the app's root, the usual case), else the nearest app
 * folder above the test file that called `mountBundle` (a monorepo running every app's tests
 * from its root), else the current directory.
 */
export function guessProjectDir(stack: string | undefined, cwd: string = process.cwd()): string {
  if (isProjectDir(cwd)) return cwd;
  const file = callerFile(stack);
  const found = file === undefined ? undefined : nearestProject(dirname(file));
  return found ?? cwd;
}
