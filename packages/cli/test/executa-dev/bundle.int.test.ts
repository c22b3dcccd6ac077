// The single-file build of `executa dev` (scripts/bundle-executa-dev.mjs) behaves like the
// modules: it runs a plugin, and its errors are the CLI's own ExitError class, so main() still
// maps them to exit codes (the CLI framework stays outside the bundle).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, cliEnv, example } from "./helpers.js";

const CLI_DIR = path.join(REPO, "packages/cli");
// Next to dist/bundle/, so the bundle's `../cli/*.js` imports resolve as in the real one.
const OUT_DIR = path.join(CLI_DIR, "dist/bundle-test");
const BUNDLE = path.join(OUT_DIR, "executa-dev.js");

beforeAll(() => {
  const built = spawnSync(
    process.execPath,
    [path.join(CLI_DIR, "scripts/bundle-executa-dev.mjs"), "--outfile", BUNDLE],
    { encoding: "utf8" },
  );
  expect(built.status, built.stderr).toBe(0);
});
afterAll(() => rmSync(OUT_DIR, { recursive: true, force: true }));

function runInNode(script: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: REPO,
    env: cliEnv(),
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const imports = `
import { runExecutaDev } from ${JSON.stringify(pathToFileURL(BUNDLE).href)};
import { ExitError } from ${JSON.stringify(pathToFileURL(path.join(CLI_DIR, "dist/cli/exit-error.js")).href)};
import { processIo } from ${JSON.stringify(pathToFileURL(path.join(CLI_DIR, "dist/cli/io.js")).href)};
`;

describe("the executa dev bundle", () => {
  it("invokes a plugin", () => {
    const flags = {
      dir: example("ts-notes"),
      invoke: "echo",
      args: '{"text":"bundled"}',
      json: true,
    };
    const r = runInNode(
      `${imports}\nprocess.exitCode = await runExecutaDev({ flags: ${JSON.stringify(flags)}, positionals: [] }, processIo());`,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('{"text":"bundled","api_key":null}\n');
  });

  it("throws the CLI's own ExitError for usage errors", () => {
    const r = runInNode(
      `${imports}\ntry { await runExecutaDev({ flags: { dir: "/nonexistent-plugin-dir", describe: true }, positionals: [] }, processIo()); }\ncatch (e) { console.log(JSON.stringify({ same: e instanceof ExitError, code: e.exitCode })); }`,
    );
    expect(JSON.parse(r.stdout)).toEqual({ same: true, code: 2 });
  });
});
