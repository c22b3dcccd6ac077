// Loading the implementation of `validate`: the single-file bundle while it is newer than every
// build it was made from (so a plain `tsc -b` never runs stale code), else the modules.
// ANNA_CLI_NO_BUNDLE=1 forces the modules.
import { bundleIsFresh } from "../cli/fresh-bundle.js";
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

export function validateBundleIsFresh(env: NodeJS.ProcessEnv = process.env): boolean {
  const url = (relative: string) => new URL(relative, import.meta.url);
  return bundleIsFresh(url(BUNDLE), INPUT_STAMPS.map(url), env);
}

export async function loadValidate(
  env: NodeJS.ProcessEnv = process.env,
): Promise<ValidateImplementation> {
  if (validateBundleIsFresh(env)) return (await import(BUNDLE)) as ValidateImplementation;
  return import("./run.js");
}
