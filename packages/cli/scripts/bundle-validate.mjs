// `node packages/cli/scripts/bundle-validate.mjs`: the compiled `validate` implementation with
// the schema, host and skills packages as one ESM file, dist/bundle/validate.js. One file
// instead of several hundred modules is most of the `validate --strict` budget (≤ 300 ms wall;
// bench/validate). dist/validate/load-validate.js uses it only while it is newer than the
// builds it was made from.
import { build } from "esbuild";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { englishOnlyZod, sideEffectFreePackages } from "./esbuild-plugins.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const outfile = `${root}dist/bundle/validate.js`;

/** Validate uses the schema, host and skills packages; the rest of them drops out (~40 KiB). */
const OUR_PACKAGES = /packages[\\/](app-schema|executa-host|skills|jsonrpc)[\\/]dist[\\/]/;

await build({
  entryPoints: [`${root}dist/validate/run.js`],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  plugins: [englishOnlyZod, sideEffectFreePackages(OUR_PACKAGES)],
  // yaml (under @anna-ai/skills) is CommonJS and requires Node built-ins.
  banner: {
    js: 'import { createRequire as __annaRequire } from "node:module"; const require = __annaRequire(import.meta.url);',
  },
  // Fully minified: V8 parses a third less text at every start (measured ~30% faster import).
  // Stack traces map back through the linked source map; ANNA_CLI_NO_BUNDLE=1 runs the modules.
  minify: true,
  legalComments: "none",
  sourcemap: "linked",
  logLevel: "warning",
});

process.stderr.write(`cli: wrote ${outfile} (${Math.round(statSync(outfile).size / 1024)} KiB)\n`);
