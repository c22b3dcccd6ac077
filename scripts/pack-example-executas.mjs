#!/usr/bin/env node
// The archives the example apps' bundled executas publish as `binary_artifacts`, so that
// `npm start` puts them in the Hub with something a server can install and run (the same
// `anna-app apps publish` a developer runs reads them). Each archive is `bin/<executable_name>`,
// a POSIX shell shim, beside the plugin: the Python ones as their source (python3 is the only
// runtime they need), the Node ones as one esbuild bundle (node and nothing from npm). The bytes
// are the same on every build (fixed mtimes, sorted entries), so a second publish uploads
// nothing and the Hub keeps one asset per version.
import { existsSync, readdirSync, readFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const APPS_DIR = path.join(root, "examples/apps");
/** Every entry's mtime: a fixed instant keeps the archive's bytes reproducible. */
const MTIME_S = 1_700_000_000;

/** The archives this script writes (build.mjs forces a build when one is missing). */
export function exampleArchives() {
  const out = [];
  for (const app of readdirSync(APPS_DIR).sort()) {
    const appJson = path.join(APPS_DIR, app, "app.json");
    if (!existsSync(appJson)) continue;
    const bundled = JSON.parse(readFileSync(appJson, "utf8")).bundled_executas ?? {};
    for (const { path: rel } of Object.values(bundled)) {
      const dir = path.resolve(APPS_DIR, app, rel);
      const file = path.join(dir, "executa.json");
      if (!existsSync(file)) continue;
      const json = JSON.parse(readFileSync(file, "utf8"));
      const artifacts = Object.values(json.distribution?.binary_artifacts ?? {});
      if (artifacts.length === 0) continue;
      const paths = new Set(artifacts.map((a) => a.path));
      if (paths.size !== 1 || artifacts.some((a) => a.entrypoint === undefined)) {
        throw new Error(
          `${file}: the example archives are platform-neutral, so every binary_artifacts entry must name the same path and an entrypoint (got ${[...paths].join(", ")})`,
        );
      }
      out.push({
        dir,
        json,
        archive: path.join(dir, [...paths][0]),
        entry: artifacts[0].entrypoint,
      });
    }
  }
  return out;
}

function octal(n, width) {
  return n.toString(8).padStart(width - 1, "0") + "\0";
}

function header(name, mode, size) {
  const h = Buffer.alloc(512);
  if (Buffer.byteLength(name) > 100) throw new Error(`archive entry name over 100 bytes: ${name}`);
  h.write(name, 0, 100, "utf8");
  h.write(octal(mode, 8), 100, 8, "ascii");
  h.write(octal(0, 8), 108, 8, "ascii");
  h.write(octal(0, 8), 116, 8, "ascii");
  h.write(octal(size, 12), 124, 12, "ascii");
  h.write(octal(MTIME_S, 12), 136, 12, "ascii");
  h.write("        ", 148, 8, "ascii");
  h.write("0", 156, 1, "ascii");
  h.write("ustar\0", 257, 6, "ascii");
  h.write("00", 263, 2, "ascii");
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8, "ascii");
  return h;
}

/** A gzip'd ustar of regular files, in name order. */
function tarGz(files) {
  const parts = [];
  for (const f of [...files].sort((a, b) => a.name.localeCompare(b.name))) {
    parts.push(header(f.name, f.mode, f.data.length), f.data);
    parts.push(Buffer.alloc((512 - (f.data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts), { level: 9 });
}

const shim = (command) =>
  Buffer.from(`#!/bin/sh\nHERE=$(cd "$(dirname "$0")/.." && pwd)\nexec ${command}\n`);

/** The files beside the shim and the command the shim runs, per launcher type. */
async function pluginFiles({ dir, json }) {
  if (json.type === "python") {
    const sources = readdirSync(dir).filter((f) => f.endsWith(".py"));
    const main = sources.find((f) => f.endsWith("_plugin.py")) ?? sources[0];
    if (main === undefined) throw new Error(`${dir}: a python executa with no .py file`);
    return {
      files: sources.map((f) => ({ name: f, mode: 0o644, data: readFileSync(path.join(dir, f)) })),
      command: `python3 -u "$HERE/${main}"`,
    };
  }
  if (json.type === "node") {
    const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    const result = await build({
      entryPoints: [path.join(dir, pkg.main ?? "dist/main.js")],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      write: false,
      minifyWhitespace: true,
      minifySyntax: true,
      legalComments: "none",
      logLevel: "warning",
      // CommonJS dependencies call `require` for Node built-ins.
      banner: {
        js: 'import { createRequire as __annaRequire } from "node:module"; const require = __annaRequire(import.meta.url);',
      },
    });
    return {
      files: [
        { name: "plugin.mjs", mode: 0o644, data: Buffer.from(result.outputFiles[0].contents) },
      ],
      command: `node "$HERE/plugin.mjs"`,
    };
  }
  throw new Error(
    `${dir}/executa.json: no archive recipe for type ${JSON.stringify(json.type)} (python and node have one)`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const x of exampleArchives()) {
    const { files, command } = await pluginFiles(x);
    const bytes = tarGz([...files, { name: x.entry, mode: 0o755, data: shim(command) }]);
    mkdirSync(path.dirname(x.archive), { recursive: true });
    writeFileSync(x.archive, bytes);
    process.stderr.write(
      `example executas: wrote ${path.relative(root, x.archive)} (${Math.round(bytes.length / 1024)} KiB)\n`,
    );
  }
}
