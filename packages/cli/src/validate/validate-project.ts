// `validateProject`: the four layers of `anna-app validate` in order (L4664–L4669), fail-fast
// between layers — a layer runs only when the ones before it found no error, because each
// builds on what the previous one established (a parsed manifest, then its files, then the
// ids they reference). Warnings never stop the run.
import { stat } from "node:fs/promises";
import path from "node:path";
import { ValidateContext, type ProjectPaths } from "./context.js";
import { countBySeverity, type Diagnostic, type ValidateLayer } from "./diagnostic.js";
import { applyFixes, type AppliedFix } from "./fix.js";
import { runCrossFileLayer } from "./layers/cross-file-layer.js";
import { runSchemaLayer } from "./layers/schema-layer.js";
import { runSkillsCheck } from "./layers/skills-check.js";
import { runStrictLayer } from "./layers/strict-layer.js";
import { runUiLayer } from "./layers/ui-layer.js";
import type { ProjectState } from "./project-state.js";

export const DEFAULT_MANIFEST = "manifest.json";
export const DEFAULT_BUNDLE_DIR = "bundle";
/** `--fix` re-validates after each round; a fix can unblock a later layer with fixes of its own. */
export const FIX_MAX_ROUNDS = 4;

export interface ValidateOptions {
  /** Relative paths resolve against this. */
  readonly cwd: string;
  /** The project folder (default: the manifest's folder, else `cwd`). */
  readonly dir?: string;
  /** Default `<dir>/manifest.json`. */
  readonly manifest?: string;
  /** Default `<project>/bundle`. */
  readonly bundle?: string;
  /** Layer 4: grep the bundle for Host API calls `ui.host_api` does not grant. */
  readonly strict?: boolean;
  /** Apply the safe fixes and report what is left. */
  readonly fix?: boolean;
}

export type LayerStatus = "passed" | "failed" | "skipped";

export interface LayerResult {
  readonly layer: Exclude<ValidateLayer, "parse">;
  readonly status: LayerStatus;
  readonly errors: number;
  readonly warnings: number;
}

export interface ValidateReport {
  /** No errors (warnings allowed). */
  readonly ok: boolean;
  readonly root: string;
  /** Project-relative. */
  readonly manifest: string;
  readonly bundle: string;
  readonly strict: boolean;
  readonly errors: number;
  readonly warnings: number;
  readonly layers: readonly LayerResult[];
  readonly diagnostics: readonly Diagnostic[];
  /** What `--fix` changed (empty without it). */
  readonly fixes: readonly AppliedFix[];
  /** Fixes available for the findings above (what `--fix` would do). */
  readonly fixable: number;
}

/** The project folder, manifest or `--bundle` folder cannot be found: a usage problem (exit 2). */
export class ValidateConfigError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ValidateConfigError";
  }
}

async function kind(target: string): Promise<"file" | "dir" | undefined> {
  try {
    const info = await stat(target);
    return info.isDirectory() ? "dir" : "file";
  } catch {
    return undefined;
  }
}

export async function resolveProjectPaths(options: ValidateOptions): Promise<ProjectPaths> {
  const dir = options.dir === undefined ? undefined : path.resolve(options.cwd, options.dir);
  if (dir !== undefined && (await kind(dir)) !== "dir") {
    throw new ValidateConfigError(
      (await kind(dir)) === "file"
        ? `${options.dir} is a file; pass the project folder, or the manifest with --manifest ${options.dir}`
        : `project folder ${options.dir} does not exist`,
    );
  }
  const manifest =
    options.manifest === undefined
      ? path.join(dir ?? options.cwd, DEFAULT_MANIFEST)
      : path.resolve(options.cwd, options.manifest);
  const manifestKind = await kind(manifest);
  if (manifestKind === undefined) {
    throw new ValidateConfigError(
      `no manifest at ${path.relative(options.cwd, manifest) || manifest}; run in an app project, pass its folder, or use --manifest <path>`,
    );
  }
  if (manifestKind === "dir") {
    throw new ValidateConfigError(
      `${options.manifest ?? manifest} is a folder; --manifest takes the manifest.json file`,
    );
  }
  const root = dir ?? path.dirname(manifest);
  const bundle =
    options.bundle === undefined
      ? path.join(root, DEFAULT_BUNDLE_DIR)
      : path.resolve(options.cwd, options.bundle);
  if (options.bundle !== undefined && (await kind(bundle)) !== "dir") {
    throw new ValidateConfigError(`--bundle ${options.bundle} is not a folder`);
  }
  return { root, manifest, bundle, bundleExplicit: options.bundle !== undefined };
}

const LAYERS: readonly {
  layer: LayerResult["layer"];
  run(ctx: ValidateContext, state: ProjectState): Promise<void>;
  strictOnly?: boolean;
}[] = [
  { layer: "schema", run: runSchemaLayer },
  { layer: "ui", run: runUiLayer },
  {
    layer: "cross-file",
    run: async (ctx, state) => {
      await runCrossFileLayer(ctx, state);
      await runSkillsCheck(ctx);
    },
  },
  { layer: "strict", run: runStrictLayer, strictOnly: true },
];

async function runOnce(
  paths: ProjectPaths,
  strict: boolean,
): Promise<{ ctx: ValidateContext; layers: LayerResult[] }> {
  const ctx = new ValidateContext(paths);
  const state: ProjectState = { pending: new Map() };
  const layers: LayerResult[] = [];
  const done: ValidateLayer[] = ["parse"];
  let stopped = false;
  for (const step of LAYERS) {
    if (stopped || (step.strictOnly && !strict)) {
      layers.push({ layer: step.layer, status: "skipped", errors: 0, warnings: 0 });
      continue;
    }
    await step.run(ctx, state);
    done.push(step.layer);
    const mine = ctx.diagnostics.filter(
      (d) => d.layer === step.layer || (step.layer === "schema" && d.layer === "parse"),
    );
    const counts = countBySeverity(mine);
    layers.push({ layer: step.layer, status: counts.errors > 0 ? "failed" : "passed", ...counts });
    if (ctx.hasErrors(done)) stopped = true;
  }
  return { ctx, layers };
}

/** Validates an app project; throws `ValidateConfigError` when there is no project to validate. */
export async function validateProject(options: ValidateOptions): Promise<ValidateReport> {
  const paths = await resolveProjectPaths(options);
  const strict = options.strict === true;
  let { ctx, layers } = await runOnce(paths, strict);
  const applied: AppliedFix[] = [];
  for (
    let round = 0;
    options.fix === true && ctx.fixes.length > 0 && round < FIX_MAX_ROUNDS;
    round++
  ) {
    const changed = await applyFixes(ctx.fixes, (file) => ctx.rel(file));
    if (changed.length === 0) break;
    applied.push(...changed);
    ({ ctx, layers } = await runOnce(paths, strict));
  }
  const counts = countBySeverity(ctx.diagnostics);
  return {
    ok: counts.errors === 0,
    root: paths.root,
    manifest: ctx.rel(paths.manifest),
    bundle: ctx.rel(paths.bundle),
    strict,
    ...counts,
    layers,
    diagnostics: ctx.diagnostics,
    fixes: applied,
    fixable: ctx.fixes.length,
  };
}
