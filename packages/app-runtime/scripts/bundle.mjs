// `npm run -w @anna-ai/app-runtime build:bundle`: the compiled SDK as one minified ES module with a
// source map, dist/bundle/index.js, served at /static/anna-apps/_sdk/latest/index.js (A8).
// Built from dist/ (run `tsc -b` first). `--outfile <path>` writes elsewhere (tests).
//
// The SDK takes only the Host API method table from @anna-ai/app-schema. That package's root
// re-exports every zod schema, and zod builds them at module load, so esbuild must be told those
// modules have no side effects — else ~500 KiB of schemas ride along unused. The flag is scoped
// to this bundle; app-schema's own package.json is untouched.
import { build } from "esbuild";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const flag = process.argv.indexOf("--outfile");
const outfile =
  flag > 0 && process.argv[flag + 1]
    ? resolve(process.argv[flag + 1])
    : `${root}dist/bundle/index.js`;

const SIDE_EFFECT_FREE = /[\\/](?:app-schema[\\/]dist|node_modules[\\/]zod)[\\/]/;
const RESOLVING = Symbol("resolving");

/** Marks app-schema's compiled modules and zod as side-effect free for tree shaking. */
const pureSchemas = {
  name: "pure-schemas",
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === RESOLVING || args.kind === "entry-point") return undefined;
      const resolved = await builder.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: RESOLVING,
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      if (resolved.external) return { path: resolved.path, external: true };
      return {
        path: resolved.path,
        namespace: resolved.namespace,
        sideEffects: SIDE_EFFECT_FREE.test(resolved.path) ? false : resolved.sideEffects,
      };
    });
  },
};

await build({
  entryPoints: [`${root}dist/index.js`],
  outfile,
  bundle: true,
  platform: "browser",
  format: "esm",
  target: "es2022",
  minify: true,
  legalComments: "none",
  sourcemap: "linked",
  plugins: [pureSchemas],
  logLevel: "warning",
});

process.stderr.write(
  `app-runtime: wrote ${outfile} (${(statSync(outfile).size / 1024).toFixed(1)} KiB)\n`,
);
