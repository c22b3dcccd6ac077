// `node packages/cli/scripts/bundle-executa-dev.mjs`: the compiled `executa dev` implementation
// with the host, JSON-RPC and schema packages as one file, dist/bundle/executa-dev.js (one-shot
// overhead ≤ 150 ms over a bare spawn; bench/executa-dev), picked by
// dist/executa-dev/load-runner.js.
import { buildCliBundle } from "./cli-bundle.mjs";

await buildCliBundle({
  entry: "dist/executa-dev/run.js",
  outfile: "dist/bundle/executa-dev.js",
  // executa dev never uses the app manifest schemas, discovery or the binary install code.
  packages: /packages[\\/](app-schema|executa-host|jsonrpc)[\\/]dist[\\/]/,
});
