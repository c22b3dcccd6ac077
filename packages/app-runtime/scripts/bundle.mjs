// `npm run -w @anna-ai/app-runtime build:bundle`: the compiled SDK as one minified ES module with a
// source map, dist/bundle/index.js, served at /static/anna-apps/_sdk/latest/index.js (A8); and the
// window host a dashboard page imports (`./host`), dist/bundle/host.js. Built from dist/ (run
// `tsc -b` first). `--outfile <path>` / `--host-outfile <path>` write that bundle elsewhere, and
// then only the bundles named are built (tests).
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
/** The path after `name` on the command line, or undefined. */
function outArg(name) {
  const flag = process.argv.indexOf(name);
  return flag > 0 && process.argv[flag + 1] ? resolve(process.argv[flag + 1]) : undefined;
}
const ALL = [
  { flag: "--outfile", entry: `${root}dist/index.js`, outfile: `${root}dist/bundle/index.js` },
  {
    flag: "--host-outfile",
    entry: `${root}dist/host/index.js`,
    outfile: `${root}dist/bundle/host.js`,
  },
];
// With an out flag only the bundles named are built (a test never rewrites dist/ under others).
const named = ALL.filter(({ flag }) => outArg(flag) !== undefined);
const BUNDLES =
  named.length === 0 ? ALL : named.map((bundle) => ({ ...bundle, outfile: outArg(bundle.flag) }));

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

for (const { entry, outfile } of BUNDLES) {
  await build({
    entryPoints: [entry],
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
}
