// `npm run bundle -w @anna-ai/executa-sdk`: the compiled SDK and @anna-ai/jsonrpc as one ESM
// file, dist/bundle/executa-sdk.js. A plugin then loads one module instead of about thirty,
// which is most of spawn → ready and of idle RSS (targets: node + 20 ms, node + 8 MiB).
// dist/entry.js uses the bundle only while it is newer than what it was built from.
// The error catalog stays external: it is imported lazily, on the first failed host call.
// `--outfile <path>` writes elsewhere (the bundle test builds into test-artifacts/).
import { build } from "esbuild";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const flag = process.argv.indexOf("--outfile");
const outfile =
  flag > 0 && process.argv[flag + 1]
    ? resolve(process.argv[flag + 1])
    : `${root}dist/bundle/executa-sdk.js`;

await build({
  entryPoints: [`${root}dist/index.js`],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["@anna-ai/app-schema", "@anna-ai/app-schema/*"],
  // Whitespace and syntax only: names stay readable in stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  sourcemap: "linked",
  logLevel: "warning",
});

process.stderr.write(
  `executa-sdk: wrote ${outfile} (${Math.round(statSync(outfile).size / 1024)} KiB)\n`,
);
