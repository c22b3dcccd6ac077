// What the apps command tests share: a verified developer with a PAT on a test Nexus, the built
// CLI run with that PAT in a private home, and the two shapes of an outcome — success with a
// silent stderr, or the documented exit code with one line naming the problem.
import { expect } from "vitest";
import { privateHome } from "../account/cli-process.js";
import type { TestNexus } from "../account/nexus-server.js";
import { runCli, type RunResult } from "../executa-init/helpers.js";

/** Signs up, makes a verified developer, sets the handle when given; returns a PAT. */
export async function developerPat(nexus: TestNexus, email: string, handle?: string) {
  const cookie = await nexus.signup(email);
  await nexus.makeDeveloper(email);
  const { pat } = await nexus.devicePat(cookie);
  if (handle !== undefined) {
    const res = await fetch(`${nexus.url}/api/v1/developer/profile/handle`, {
      method: "PUT",
      headers: { authorization: `Bearer ${pat}`, "content-type": "application/json" },
      body: JSON.stringify({ handle }),
    });
    expect(res.status).toBe(200);
  }
  return pat;
}

/** `anna-app …` with ANNA_APP_HOST + ANNA_APP_PAT, as in CI. */
export function appsCli(env: () => NodeJS.ProcessEnv) {
  return (args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) => {
    const { env: base } = privateHome();
    return runCli(args, { cwd, env: { ...base, ...env(), ...extra }, timeoutMs: 60_000 });
  };
}

export const ok = (r: RunResult) => {
  expect(r.stderr, r.stdout).toBe("");
  expect(r.code).toBe(0);
  return r;
};

export const fail = (r: RunResult, code: number, text: string) => {
  expect(r.code, r.stderr + r.stdout).toBe(code);
  expect(r.stderr).toContain(text);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
};
