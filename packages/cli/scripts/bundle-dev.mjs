// `node packages/cli/scripts/bundle-dev.mjs`: the compiled `anna-app dev` implementation with
// app-core, the host, the JSON-RPC, schema and skills packages, jose and zod as one ESM file,
// dist/bundle/dev.js. One file instead of several hundred modules takes most of the module
// loading out of start → dashboard ready (≤ 1 s; bench/app-dev). dist/dev/load-harness.js uses it
// only while it is newer than the builds it was made from. The dashboard's browser files are read
// from src/dev/dashboard/browser/ at run time (same relative path from dist/bundle/ as from
// dist/dev/), and the SDK from @anna-ai/app-runtime's own bundle.
import { build } from "esbuild";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { englishOnlyZod, keepCliFramework, sideEffectFreePackages } from "./esbuild-plugins.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
// `--outfile <path>` writes elsewhere (the bundle test builds into dist/bundle-test-dev/).
const flag = process.argv.indexOf("--outfile");
const outfile =
  flag > 0 && process.argv[flag + 1]
    ? resolve(process.argv[flag + 1])
    : `${root}dist/bundle/dev.js`;

const OUR_PACKAGES = /packages[\\/](app-core|app-schema|executa-host|jsonrpc|skills)[\\/]dist[\\/]/;

await build({
  entryPoints: [`${root}dist/dev/harness-entry.js`],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  plugins: [keepCliFramework, englishOnlyZod, sideEffectFreePackages(OUR_PACKAGES)],
  // yaml (under @anna-ai/skills) is CommonJS and requires Node built-ins.
  banner: {
    js: 'import { createRequire as __annaRequire } from "node:module"; const require = __annaRequire(import.meta.url);',
  },
  // Fully minified: V8 parses a third less text at every start. ANNA_CLI_NO_BUNDLE=1 runs the
  // modules; stack traces map back through the linked source map with --enable-source-maps.
  minify: true,
  legalComments: "none",
  sourcemap: "linked",
  logLevel: "warning",
});

process.stderr.write(`cli: wrote ${outfile} (${Math.round(statSync(outfile).size / 1024)} KiB)\n`);
