#!/usr/bin/env node
// The one build: `tsc -b` over every package, then the single-file bundles that keep start-up
// fast (the plugin SDK, the CLI's executa-dev, validate and dev paths) and the browser SDK. Every
// script that needs built code (`prepare`, `build`, `start`, `test`, the benchmarks) runs this.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);

const BUNDLES = [
  "packages/executa-sdk/scripts/bundle.mjs",
  "packages/cli/scripts/bundle-executa-dev.mjs",
  "packages/cli/scripts/bundle-validate.mjs",
  "packages/cli/scripts/bundle-dev.mjs",
  "packages/app-runtime/scripts/bundle.mjs",
];

const run = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: "inherit" });

try {
  run([require.resolve("typescript/bin/tsc"), "-b"]);
  for (const script of BUNDLES) run([script]);
} catch {
  // The failing step already printed its own errors; a stack trace here would only bury them.
  process.exit(1);
}
