// Whether `node scripts/build.mjs` has anything to do. A no-op `tsc -b` still reads every
// project's build info and the five esbuild bundles always rewrite their files, which costs
// seconds on every `npm start` and `npm test`; a stamp written after a successful build, compared
// with the newest build input, skips all of it when nothing changed.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";

/** Under node_modules so `npm ci` (which empties it) always forces a full build. */
export const STAMP_FILE = "node_modules/.cache/anna-platform/build-stamp";

/** Root files every project reads (compiler options, dependency versions, the build itself). */
const ROOT_INPUTS = [
  "package.json",
  "package-lock.json",
  "tsconfig.base.json",
  "tsconfig.json",
  "scripts/build.mjs",
  "scripts/build-freshness.mjs",
  "scripts/pack-example-executas.mjs",
  // What the example executa archives hold that no project compiles.
  "examples/apps/focus-flow/executas/focus-session/executa.json",
  "examples/apps/focus-flow/executas/focus-session/focus_session_plugin.py",
  "examples/apps/picture-book-studio/executas/storyteller/executa.json",
];
/** Per project: what `tsc` compiles and what the bundle scripts read. */
const PROJECT_INPUTS = ["src", "scripts", "package.json", "tsconfig.json"];

/** The folders of the root tsconfig.json's project references, relative to `root`. */
export function projectDirs(root) {
  const config = JSON.parse(readFileSync(path.join(root, "tsconfig.json"), "utf8"));
  return (config.references ?? []).map((reference) => reference.path);
}

/**
 * Every file the build reads, and the folders holding them (a folder's time changes when a file
 * is added, removed or renamed in it), as absolute paths.
 */
export function buildInputs(root) {
  const out = [];
  const visit = (target) => {
    let info;
    try {
      info = statSync(target);
    } catch {
      return;
    }
    if (info.isFile()) out.push(target);
    else if (info.isDirectory()) {
      out.push(target);
      for (const entry of readdirSync(target)) visit(path.join(target, entry));
    }
  };
  for (const file of ROOT_INPUTS) visit(path.join(root, file));
  for (const dir of projectDirs(root)) {
    for (const input of PROJECT_INPUTS) visit(path.join(root, dir, input));
  }
  return out;
}

/**
 * Where a project's `tsc -b` writes its build info: its tsconfig's `tsBuildInfoFile` when it
 * names one (the dashboard's browser project writes into the cli's dist), else `dist/`.
 */
function buildInfoOf(root, dir) {
  let options = {};
  try {
    // tsconfig files are JSONC; ours use whole-line `//` comments only.
    const text = readFileSync(path.join(root, dir, "tsconfig.json"), "utf8");
    options = JSON.parse(text.replace(/^\s*\/\/.*$/gm, "")).compilerOptions ?? {};
  } catch {
    // An unreadable tsconfig fails the build itself; the default path is as good as any here.
  }
  return typeof options.tsBuildInfoFile === "string"
    ? path.normalize(path.join(dir, options.tsBuildInfoFile))
    : path.join(dir, "dist", ".tsbuildinfo");
}

/** What the build writes: each project's build info and the bundles, relative to `root`. */
export function buildOutputs(root, bundleOutputs) {
  return [...projectDirs(root).map((dir) => buildInfoOf(root, dir)), ...bundleOutputs];
}

/**
 * Why a build is needed, in words (`packages/cli/src/main.ts changed since the last build`), or
 * undefined when every output exists and no input is newer than the last successful build.
 */
export function staleReason(root, bundleOutputs) {
  const stamp = path.join(root, STAMP_FILE);
  if (!existsSync(stamp)) return "no successful build recorded yet";
  const builtAtMs = statSync(stamp).mtimeMs;
  for (const output of buildOutputs(root, bundleOutputs)) {
    if (!existsSync(path.join(root, output))) return `${output} is missing`;
  }
  for (const input of buildInputs(root)) {
    if (statSync(input).mtimeMs > builtAtMs) {
      return `${path.relative(root, input).split(path.sep).join("/")} changed since the last build`;
    }
  }
  return undefined;
}

/**
 * Records a successful build that started at `startedAtMs`: a file saved while the build ran is
 * newer than the stamp, so the next run builds again.
 */
export function markBuilt(root, startedAtMs) {
  const stamp = path.join(root, STAMP_FILE);
  mkdirSync(path.dirname(stamp), { recursive: true });
  writeFileSync(stamp, "");
  const seconds = startedAtMs / 1000;
  utimesSync(stamp, seconds, seconds);
}
