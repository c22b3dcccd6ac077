// The one esbuild call behind the CLI's single-file bundles (bundle-executa-dev.mjs,
// bundle-validate.mjs, bundle-dev.mjs): a command's compiled implementation and the packages it
// uses as one minified ESM file under dist/bundle/, which the command's loader picks while it is
// fresher than the builds it came from. One file instead of a few hundred modules is most of
// each command's start-up budget (bench/executa-dev, bench/validate, bench/app-dev).
import { build } from "esbuild";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  englishOnlyZod,
  keepCliFramework,
  noHttp2ForHono,
  sideEffectFreePackages,
} from "./esbuild-plugins.mjs";

const CLI_ROOT = fileURLToPath(new URL("..", import.meta.url));

/** CommonJS dependencies (yaml, under @anna-ai/skills) call `require` for Node built-ins. */
const REQUIRE_SHIM =
  'import { createRequire as __annaRequire } from "node:module"; const require = __annaRequire(import.meta.url);';

/**
 * `entry` and `outfile` are relative to packages/cli/; `--outfile <path>` on the command line
 * writes elsewhere (the bundle tests build beside dist/bundle/). `packages` matches the built
 * files of our packages whose unused modules may be dropped whole.
 */
export async function buildCliBundle({ entry, outfile, packages, requireShim = false }) {
  const flag = process.argv.indexOf("--outfile");
  const target =
    flag > 0 && process.argv[flag + 1]
      ? resolve(process.argv[flag + 1])
      : resolve(CLI_ROOT, outfile);
  await build({
    entryPoints: [resolve(CLI_ROOT, entry)],
    outfile: target,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    plugins: [keepCliFramework, englishOnlyZod, noHttp2ForHono, sideEffectFreePackages(packages)],
    ...(requireShim ? { banner: { js: REQUIRE_SHIM } } : {}),
    // Fully minified: V8 parses a third less text at every start. Stack traces (ANNA_DEBUG=1)
    // map back through the linked source map with --enable-source-maps; ANNA_CLI_NO_BUNDLE=1
    // runs the modules.
    minify: true,
    legalComments: "none",
    sourcemap: "linked",
    logLevel: "warning",
  });
  process.stderr.write(`cli: wrote ${target} (${Math.round(statSync(target).size / 1024)} KiB)\n`);
}
