#!/usr/bin/env node
// `npm run pack`: the `@anna-ai/*` packages as npm tarballs in packs/, so the CLI installs from a
// checkout without the registry (none of them is published under these names yet):
//
//   npm run pack && npm install -g ./packs/anna-ai-cli-0.1.0.tgz
//
// Each package gets its own tarball (a plugin depends on the SDK's). The CLI's tarball also
// carries every package it runs on, ours and third-party, as bundled dependencies, so that one
// install needs nothing else; and it names this packs/ folder, so the projects `anna-app init`
// and `executa init` generate depend on these tarballs rather than on a registry range.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
/** `--out <dir>` packs elsewhere (the install test packs into a temp folder). */
const outFlag = process.argv.indexOf("--out");
const packsDir =
  outFlag > 0 && process.argv[outFlag + 1]
    ? path.resolve(process.argv[outFlag + 1])
    : path.join(root, "packs");
const stageDir = path.join(packsDir, ".stage");
const CLI = "@anna-ai/cli";

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));
const npm = (args, cwd) =>
  execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });

/** name → folder of every workspace package under packages/. */
function workspacePackages() {
  const out = new Map();
  for (const pattern of readJson(path.join(root, "package.json")).workspaces) {
    if (!pattern.startsWith("packages/")) continue;
    const dir = path.join(root, pattern);
    out.set(readJson(path.join(dir, "package.json")).name, dir);
  }
  return out;
}

/** Packs `dir` into packs/ and returns the tarball's path. */
function pack(dir) {
  const [result] = JSON.parse(npm(["pack", "--json", "--pack-destination", packsDir], dir));
  return path.join(packsDir, result.filename);
}

/** Unpacks a tarball's `package/` folder into `target`. */
function unpack(tarball, target) {
  mkdirSync(target, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", target, "--strip-components=1"]);
}

execFileSync(process.execPath, [path.join(root, "scripts/build.mjs")], { stdio: "inherit" });
rmSync(packsDir, { recursive: true, force: true });
mkdirSync(packsDir, { recursive: true });

const ours = workspacePackages();
const tarballs = new Map([...ours].map(([name, dir]) => [name, pack(dir)]));

// The CLI again, with its whole production closure under node_modules/.
const cliDir = path.join(stageDir, "cli");
unpack(tarballs.get(CLI), cliDir);
const seen = new Set();
const queue = Object.keys(readJson(path.join(cliDir, "package.json")).dependencies ?? {});
while (queue.length > 0) {
  const name = queue.shift();
  if (seen.has(name)) continue;
  seen.add(name);
  const target = path.join(cliDir, "node_modules", ...name.split("/"));
  if (tarballs.has(name)) unpack(tarballs.get(name), target);
  else cpSync(path.join(root, "node_modules", ...name.split("/")), target, { recursive: true });
  queue.push(...Object.keys(readJson(path.join(target, "package.json")).dependencies ?? {}));
}
const manifestFile = path.join(cliDir, "package.json");
const manifest = readJson(manifestFile);
manifest.bundleDependencies = Object.keys(manifest.dependencies ?? {});
manifest.annaPacksDir = packsDir;
writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
const cliTarball = pack(cliDir);
rmSync(stageDir, { recursive: true, force: true });

process.stderr.write(
  `pack: wrote ${tarballs.size} packages to ${packsDir}; install the CLI with:\n` +
    `  npm install -g ${cliTarball}\n`,
);
