// Loading the implementation of `validate`: the single-file bundle while it is newer than every
// build it was made from (so a plain `tsc -b` never runs stale code), else the modules.
// ANNA_CLI_NO_BUNDLE=1 forces the modules.
import { statSync } from "node:fs";
import type * as Implementation from "./run.js";

export type ValidateImplementation = typeof Implementation;

/** Relative to dist/validate/. */
const BUNDLE = "../bundle/validate.js";
/** Build stamps of the bundled projects (tsc -b rewrites them when it emits). */
const INPUT_STAMPS = [
  "../.tsbuildinfo",
  "../../../app-schema/dist/.tsbuildinfo",
  "../../../executa-host/dist/.tsbuildinfo",
  "../../../jsonrpc/dist/.tsbuildinfo",
  "../../../skills/dist/.tsbuildinfo",
];

function mtimeMs(relative: string): number | undefined {
  try {
    return statSync(new URL(relative, import.meta.url)).mtimeMs;
  } catch {
    return undefined;
  }
}

export function validateBundleIsFresh(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.ANNA_CLI_NO_BUNDLE === "1") return false;
  const bundle = mtimeMs(BUNDLE);
  if (bundle === undefined) return false;
  // A stamp that does not exist (a published install has none) cannot make it stale.
  return INPUT_STAMPS.every((stamp) => (mtimeMs(stamp) ?? 0) <= bundle);
}

export async function loadValidate(
  env: NodeJS.ProcessEnv = process.env,
): Promise<ValidateImplementation> {
  if (validateBundleIsFresh(env)) return (await import(BUNDLE)) as ValidateImplementation;
  return import("./run.js");
}
