#!/usr/bin/env node
// Builds the dashboard with Vite into dist/ (index.html, hashed files under dist/assets/) and
// prints the gzip size of the JavaScript the first page load needs, failing over the budget
// (issue 14: initial JS ≤ 250 KB gzip). dist/types is tsc's and is left alone. The app SDK that
// bundles in its windows import (@anna-ai/app-runtime's browser build) goes to dist/app-sdk/,
// which Nexus serves at /static/anna-apps/_sdk/latest/index.js.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "vite";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const OUT_DIR = path.join(PACKAGE_DIR, "dist");
const INITIAL_JS_BUDGET_BYTES = 250 * 1024;

// Hashed names change with every edit; without this, old ones would pile up in dist/assets.
rmSync(path.join(OUT_DIR, "assets"), { recursive: true, force: true });
rmSync(path.join(OUT_DIR, "index.html"), { force: true });
rmSync(path.join(OUT_DIR, "mobile-shell.html"), { force: true });

const result = await build({
  root: path.join(PACKAGE_DIR, "src"),
  base: "/",
  configFile: false,
  logLevel: "warn",
  build: {
    outDir: OUT_DIR,
    emptyOutDir: false,
    assetsDir: "assets",
    // The CSP allows no data: scripts and no inline styles from files; keep every asset a file.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: "es2022",
    reportCompressedSize: false,
    rolldownOptions: {
      // Two pages: the dashboard, and the mobile shell Nexus serves at
      // /api/v1/anna-apps/runtime/mobile-shell (one app window full screen).
      input: {
        index: path.join(PACKAGE_DIR, "src", "index.html"),
        "mobile-shell": path.join(PACKAGE_DIR, "src", "mobile-shell.html"),
      },
      // React Query marks its modules "use client" for server-component bundlers; a static
      // page has no server components, so dropping the directive is right and not worth a line.
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
    },
  },
});

const SDK_OUT = path.join(OUT_DIR, "app-sdk");
mkdirSync(SDK_OUT, { recursive: true });
copyFileSync(
  createRequire(import.meta.url).resolve("@anna-ai/app-runtime/bundle"),
  path.join(SDK_OUT, "index.js"),
);

const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output);
// The dashboard page's entry and the chunks it imports statically load first; lazy chunks and
// the mobile shell's page do not count.
const chunks = new Map(outputs.filter((o) => o.type === "chunk").map((o) => [o.fileName, o]));
const dashboardEntry = [...chunks.values()].find(
  (o) => o.isEntry && o.facadeModuleId?.endsWith(`${path.sep}index.html`),
);
if (dashboardEntry === undefined) {
  process.stderr.write("dashboard: the build has no entry chunk for index.html\n");
  process.exit(1);
}
const initialNames = new Set();
const visit = (chunk) => {
  if (initialNames.has(chunk.fileName)) return;
  initialNames.add(chunk.fileName);
  for (const name of chunk.imports) if (chunks.has(name)) visit(chunks.get(name));
};
visit(dashboardEntry);
const initial = [...initialNames].map((name) => chunks.get(name));
const gzipBytes = initial.reduce(
  (sum, chunk) => sum + gzipSync(readFileSync(path.join(OUT_DIR, chunk.fileName))).length,
  0,
);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
process.stderr.write(
  `dashboard: initial JS ${kb(gzipBytes)} gzip (budget ${kb(INITIAL_JS_BUDGET_BYTES)}), ${initial.length} file(s)\n`,
);
if (gzipBytes > INITIAL_JS_BUDGET_BYTES) {
  process.stderr.write(
    `dashboard: initial JS is over its budget by ${kb(gzipBytes - INITIAL_JS_BUDGET_BYTES)}; lazy-load a page (React.lazy) or drop a dependency\n`,
  );
  process.exit(1);
}
