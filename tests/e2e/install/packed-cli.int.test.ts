// A new user's first hour outside this repository: `npm run pack`, `npm install -g` of the CLI
// tarball (offline: everything it runs on is inside it), then `anna-app init` / `executa init`
// with the installed binary in a folder far from the checkout, and every "next steps" line run as
// printed. `anna-app dev` keeps running, so its line is checked with `--help`; `npm install &&
// npm test` needs vitest from the registry, so this repository's vitest is linked instead.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, run, suiteDir, testEnv } from "../../../packages/cli/test/executa-init/helpers.js";
import { runBundleTests } from "../../../packages/cli/test/init/helpers.js";
import { needs } from "../../support/toolchains.js";

/** Packing and installing copy a few thousand files; these bound a hang, they measure nothing. */
const PACK_TIMEOUT_MS = 300_000;
const STEP_TIMEOUT_MS = 60_000;
const python = needs("python3");

describe.skipIf(python.skip)(`the CLI installed from npm run pack${python.reason}`, () => {
  const work = suiteDir("packed-cli-");
  const packs = path.join(work, "packs");
  const prefix = path.join(work, "prefix");
  const projects = path.join(work, "projects");
  const bin = path.join(prefix, "bin");
  const env = testEnv({ PATH: `${bin}${path.delimiter}${testEnv().PATH ?? ""}` });

  beforeAll(async () => {
    const packed = await run(process.execPath, ["scripts/pack.mjs", "--out", packs], {
      cwd: REPO,
      timeoutMs: PACK_TIMEOUT_MS,
    });
    expect(packed.code, packed.stderr).toBe(0);
    const installed = await run(
      "npm",
      [
        "install",
        "-g",
        "--prefix",
        prefix,
        "--offline",
        "--no-audit",
        "--no-fund",
        path.join(packs, "anna-ai-cli-0.1.0.tgz"),
      ],
      { cwd: work, timeoutMs: PACK_TIMEOUT_MS },
    );
    expect(installed.code, installed.stderr).toBe(0);
    spawnSync("mkdir", ["-p", projects]);
  }, 2 * PACK_TIMEOUT_MS);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** Runs the printed next steps from where init ran, as a user pasting them would. */
  async function runNextSteps(steps: readonly string[], from: string): Promise<void> {
    let cwd = from;
    for (const step of steps) {
      if (step.startsWith("cd ")) {
        cwd = path.resolve(cwd, step.slice(3));
        continue;
      }
      const result =
        step === "npm install && npm test"
          ? await runBundleTests(cwd)
          : await run("sh", ["-c", step === "anna-app dev" ? "anna-app dev --help" : step], {
              cwd,
              env,
              timeoutMs: STEP_TIMEOUT_MS,
            });
      expect(result.code, `${step}\n${result.stdout}\n${result.stderr}`).toBe(0);
    }
  }

  it(
    "scaffolds an app that depends on the packed CLI, and every next step works",
    async () => {
      const init = await run("anna-app", ["init", "my-app", "--json"], { cwd: projects, env });
      expect(init.code, init.stderr).toBe(0);
      const { next_steps: steps } = JSON.parse(init.stdout) as { next_steps: string[] };
      expect(steps.at(-1)).toBe("anna-app dev");
      const pkg = JSON.parse(readFileSync(path.join(projects, "my-app/package.json"), "utf8")) as {
        devDependencies: Record<string, string>;
      };
      expect(pkg.devDependencies["@anna-ai/cli"]).toBe(
        `file:${path.join(packs, "anna-ai-cli-0.1.0.tgz")}`,
      );
      await runNextSteps(steps, projects);
    },
    PACK_TIMEOUT_MS,
  );

  it(
    "scaffolds a plugin whose next steps run with the installed anna-app",
    async () => {
      const init = await run(
        "anna-app",
        ["executa", "init", "my-tool", "--template", "node", "--json"],
        {
          cwd: projects,
          env,
        },
      );
      expect(init.code, init.stderr).toBe(0);
      const { next_steps: steps } = JSON.parse(init.stdout) as { next_steps: string[] };
      const pkg = JSON.parse(readFileSync(path.join(projects, "my-tool/package.json"), "utf8")) as {
        devDependencies: Record<string, string>;
      };
      expect(pkg.devDependencies["@anna-ai/cli"]).toBe(
        `file:${path.join(packs, "anna-ai-cli-0.1.0.tgz")}`,
      );
      await runNextSteps(steps, projects);
    },
    PACK_TIMEOUT_MS,
  );
});
