// `node packages/cli/scripts/bundle-validate.mjs`: the compiled `validate` implementation with
// the schema, host and skills packages as one ESM file, dist/bundle/validate.js. One file
// instead of several hundred modules is most of the `validate --strict` budget (≤ 300 ms wall;
// bench/validate). dist/validate/load-validate.js uses it only while it is newer than the
// builds it was made from.
import { build } from "esbuild";
import { statSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outfile = `${root}dist/bundle/validate.js`;

/**
 * zod's `z` namespace re-exports every locale (≈290 KiB of the bundle) and so defeats tree
 * shaking; nothing here switches locale, so only English (zod's default) is kept.
 */
const englishOnlyZod = {
  name: "english-only-zod",
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      loader: "js",
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * Our packages have no import-time side effects (no bare `import "x"`, no global set-up), so
 * modules of theirs that validate never uses — the Executa wire schemas, the host's process and
 * router code — can be dropped whole. Measured: ~40 KiB less and a faster import.
 */
const OUR_PACKAGES = /packages[\\/](app-schema|executa-host|skills|jsonrpc)[\\/]dist[\\/]/;
const sideEffectFreePackages = {
  name: "side-effect-free-packages",
  setup(b) {
    b.onResolve({ filter: /^(@anna-ai\/|\.)/ }, async (args) => {
      if (args.pluginData?.resolving) return undefined;
      const resolved = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      });
      if (resolved.errors.length > 0 || !OUR_PACKAGES.test(resolved.path)) return undefined;
      return { path: resolved.path, sideEffects: false };
    });
  },
};

await build({
  entryPoints: [`${root}dist/validate/run.js`],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  plugins: [englishOnlyZod, sideEffectFreePackages],
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
