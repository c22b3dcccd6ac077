#!/usr/bin/env node
// The one build: `tsc -b` over every package, then the single-file bundles that keep start-up
// fast (the plugin SDK, the CLI's executa-dev, validate and dev paths), the browser SDK, the
// web dashboard (Vite) and the example apps' executa archives that `npm start` publishes.
// Every script that needs built code (`prepare`, `build`, `start`, `test`, the benchmarks) runs
// this, so it does nothing when no input changed since its last successful run
// (build-freshness.mjs); `--force` builds anyway.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { markBuilt, staleReason } from "./build-freshness.mjs";
import { exampleArchives } from "./pack-example-executas.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);

const BUNDLES = [
  "packages/executa-sdk/scripts/bundle.mjs",
  "packages/cli/scripts/bundle-executa-dev.mjs",
  "packages/cli/scripts/bundle-validate.mjs",
  "packages/cli/scripts/bundle-dev.mjs",
  "packages/app-runtime/scripts/bundle.mjs",
  "packages/dashboard/scripts/build.mjs",
  "scripts/pack-example-executas.mjs",
];
/** The files BUNDLES write: a missing one forces a build. */
const BUNDLE_OUTPUTS = [
  "packages/executa-sdk/dist/bundle/executa-sdk.js",
  "packages/cli/dist/bundle/executa-dev.js",
  "packages/cli/dist/bundle/validate.js",
  "packages/cli/dist/bundle/dev.js",
  "packages/app-runtime/dist/bundle/index.js",
  "packages/app-runtime/dist/bundle/host.js",
  "packages/dashboard/dist/index.html",
  "packages/dashboard/dist/app-sdk/index.js",
  ...exampleArchives().map((x) => path.relative(root, x.archive)),
];

const run = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: "inherit" });

const reason = process.argv.includes("--force") ? "--force" : staleReason(root, BUNDLE_OUTPUTS);
if (reason === undefined) {
  process.stderr.write("build: up to date (no input changed since the last build)\n");
} else {
  process.stderr.write(`build: building (${reason})\n`);
  const startedAtMs = Date.now();
  try {
    run([require.resolve("typescript/bin/tsc"), "-b"]);
    for (const script of BUNDLES) run([script]);
  } catch {
    // The failing step already printed its own errors; a stack trace here would only bury them.
    process.exit(1);
  }
  markBuilt(root, startedAtMs);
}
