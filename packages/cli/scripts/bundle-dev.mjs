// `node packages/cli/scripts/bundle-dev.mjs`: the compiled `anna-app dev` implementation with
// app-core, the host, the JSON-RPC, schema and skills packages, jose and zod as one file,
// dist/bundle/dev.js (start → dashboard ready ≤ 1 s; bench/app-dev), picked by
// dist/dev/load-harness.js. The dashboard's browser files are read from src/dev/dashboard/browser/
// at run time (the same relative path from dist/bundle/ as from dist/dev/), and the SDK from
// @anna-ai/app-runtime's own bundle.
import { buildCliBundle } from "./cli-bundle.mjs";

await buildCliBundle({
  entry: "dist/dev/harness-entry.js",
  outfile: "dist/bundle/dev.js",
  packages: /packages[\\/](app-core|app-schema|executa-host|jsonrpc|skills)[\\/]dist[\\/]/,
  requireShim: true,
});
