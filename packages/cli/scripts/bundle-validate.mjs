// `node packages/cli/scripts/bundle-validate.mjs`: the compiled `validate` implementation with
// the schema, host and skills packages as one file, dist/bundle/validate.js (`validate --strict`
// ≤ 300 ms wall; bench/validate), picked by dist/validate/load-validate.js.
import { buildCliBundle } from "./cli-bundle.mjs";

await buildCliBundle({
  entry: "dist/validate/run.js",
  outfile: "dist/bundle/validate.js",
  // Validate uses the schema, host and skills packages; the rest of them drops out (~40 KiB).
  packages: /packages[\\/](app-schema|executa-host|skills|jsonrpc)[\\/]dist[\\/]/,
  requireShim: true,
});
