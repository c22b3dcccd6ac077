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

const root = fileURLToPath(new URL("..", import.meta.url));
// `--outfile <path>` writes elsewhere (the bundle test builds into dist/bundle-test/).
const flag = process.argv.indexOf("--outfile");
const outfile =
  flag > 0 && process.argv[flag + 1]
    ? resolve(process.argv[flag + 1])
    : `${root}dist/bundle/executa-dev.js`;

/** `../cli/x.js` from dist/executa-dev/ is `../cli/x.js` from dist/bundle/ too: keep the path. */
const keepCliFramework = {
  name: "keep-cli-framework",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/cli\/[a-z-]+\.js$/ }, (args) => ({
      path: args.path,
      external: true,
    }));
  },
};

/**
 * zod's namespace re-exports all 60-odd locales (`z.locales`); nothing here switches locale, and
 * zod registers English itself, so only `en` is kept: a third less code to load per run.
 */
const englishOnlyZodLocales = {
  name: "english-only-zod-locales",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${"/node_modules/zod/"}`)
        ? { path: "zod-locales-en", namespace: "zod-locales" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, () => ({
      contents: 'export { default as en } from "zod/v4/locales/en.js";',
      resolveDir: root,
    }));
  },
};

/**
 * Our packages have no import-time side effects that executa dev relies on without also using
 * their exports, so modules it never uses (the app manifest schemas, discovery, the binary
 * install code) can be dropped whole (the same rule as scripts/bundle-validate.mjs).
 */
const OUR_PACKAGES = /packages[\\/](app-schema|executa-host|jsonrpc)[\\/]dist[\\/]/;
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
  entryPoints: [`${root}dist/executa-dev/run.js`],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  plugins: [keepCliFramework, englishOnlyZodLocales, sideEffectFreePackages],
  // Fully minified: V8 parses a third less text at every start. Stack traces (ANNA_DEBUG=1)
  // map back through the linked source map with --enable-source-maps; ANNA_CLI_NO_BUNDLE=1 runs
  // the modules.
  minify: true,
  legalComments: "none",
  sourcemap: "linked",
  logLevel: "warning",
});

process.stderr.write(`cli: wrote ${outfile} (${Math.round(statSync(outfile).size / 1024)} KiB)\n`);
