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
 * dist/bundle/ too: the path is kept as it is. The plugin inspector (`src/inspector/*`, loaded
 * by `executa dev --ui` only) stays outside the same way, so one-shot runs never parse Hono.
 */
export const keepCliFramework = {
  name: "keep-cli-framework",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/(cli|inspector)\/[a-z-]+\.js$/ }, (args) => ({
      path: args.path,
      external: true,
    }));
  },
};

/**
 * `@hono/node-server` imports `node:http2` only to tell an HTTP/2 request apart
 * (`instanceof Http2ServerRequest`) and to close its stream. The CLI's servers are HTTP/1.1
 * (`createServer` from `node:http`), so no request is ever one; loading the HTTP/2 stack anyway
 * was a tenth of `anna-app dev`'s start (D-cli-dev-61). A class nothing is an instance of keeps
 * those checks false, as they are at run time.
 */
export const noHttp2ForHono = {
  name: "no-http2-for-hono",
  setup(b) {
    b.onResolve({ filter: /^node:http2$/ }, (args) =>
      /[\\/]@hono[\\/]node-server[\\/]/.test(args.importer)
        ? { path: "http2-unused", namespace: "no-http2" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "no-http2" }, () => ({
      contents:
        "export class Http2ServerRequest {}\nexport const constants = { NGHTTP2_NO_ERROR: 0 };\n",
      loader: "js",
    }));
  },
};
