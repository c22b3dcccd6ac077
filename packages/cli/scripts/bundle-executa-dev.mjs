// `node packages/cli/scripts/bundle-executa-dev.mjs`: the compiled `executa dev` implementation
// with the host, JSON-RPC and schema packages as one ESM file, dist/bundle/executa-dev.js. One
// file instead of a few hundred modules is most of the one-shot overhead target (≤ 150 ms over a
// bare spawn; bench/executa-dev). dist/executa-dev/load-runner.js uses it only while it is newer
// than the builds it was made from. The CLI framework (`src/cli/*`) stays external so the
// ExitError that main() checks with instanceof is the same class.
import { build } from "esbuild";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { englishOnlyZod, keepCliFramework, sideEffectFreePackages } from "./esbuild-plugins.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
// `--outfile <path>` writes elsewhere (the bundle test builds into dist/bundle-test/).
const flag = process.argv.indexOf("--outfile");
const outfile =
  flag > 0 && process.argv[flag + 1]
    ? resolve(process.argv[flag + 1])
    : `${root}dist/bundle/executa-dev.js`;

/** executa dev never uses the app manifest schemas, discovery or the binary install code. */
const OUR_PACKAGES = /packages[\\/](app-schema|executa-host|jsonrpc)[\\/]dist[\\/]/;

await build({
  entryPoints: [`${root}dist/executa-dev/run.js`],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  plugins: [keepCliFramework, englishOnlyZod, sideEffectFreePackages(OUR_PACKAGES)],
  // Fully minified: V8 parses a third less text at every start. Stack traces (ANNA_DEBUG=1)
  // map back through the linked source map with --enable-source-maps; ANNA_CLI_NO_BUNDLE=1 runs
  // the modules.
  minify: true,
  legalComments: "none",
  sourcemap: "linked",
  logLevel: "warning",
});

process.stderr.write(`cli: wrote ${outfile} (${Math.round(statSync(outfile).size / 1024)} KiB)\n`);
