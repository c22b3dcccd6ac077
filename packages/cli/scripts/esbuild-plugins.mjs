// esbuild plugins of the CLI's single-file bundles (cli-bundle.mjs).
import { dirname } from "node:path";

/**
 * zod's `z` namespace re-exports every locale (≈290 KiB) and so defeats tree shaking; nothing in
 * the CLI switches locale, so only English (zod's default) is kept.
 */
export const englishOnlyZod = {
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
 * Our packages have no import-time side effects (no bare `import "x"`, no global set-up), so the
 * modules of theirs a bundle never uses can be dropped whole. `packages` matches the built files
 * of the packages this applies to.
 */
export function sideEffectFreePackages(packages) {
  return {
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
        if (resolved.errors.length > 0 || !packages.test(resolved.path)) return undefined;
        return { path: resolved.path, sideEffects: false };
      });
    },
  };
}

/**
 * The CLI framework (`src/cli/*`) stays outside a bundle, so a class main() checks with
 * instanceof (ExitError) is the same one. `../cli/x.js` from dist/<command>/ is `../cli/x.js` from
 * dist/bundle/ too: the path is kept as it is.
 */
export const keepCliFramework = {
  name: "keep-cli-framework",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/cli\/[a-z-]+\.js$/ }, (args) => ({
      path: args.path,
      external: true,
    }));
  },
};
