// `anna-app doctor` through the built CLI with an injected PATH: tools missing, then fake tools
// that print known versions.
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { probeSupervisor } from "@anna-ai/executa-host";
import { describe, expect, it } from "vitest";
import { jsonLine, runCli, tempDir, testEnv } from "../executa-init/helpers.js";

interface Check {
  id: string;
  status: string;
  found: string;
  version?: string;
  detail: string;
}

/** A folder of shell scripts standing in for the tools, each printing its version line. */
async function fakeTools(tools: Record<string, string>): Promise<string> {
  const bin = path.join(tempDir("doctor-bin-"), "bin");
  await mkdir(bin);
  for (const [name, output] of Object.entries(tools)) {
    const file = path.join(bin, name);
    await writeFile(file, `#!/bin/sh\necho '${output}'\n`);
    await chmod(file, 0o755);
  }
  return bin;
}

describe("anna-app doctor", () => {
  it("on a PATH without python3, uv, go or npm: ! rows saying what is disabled, exit 0", async () => {
    const empty = await fakeTools({});
    const result = await runCli(["doctor"], { env: testEnv({ PATH: empty }) });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}✓ Node +\d+\.\d+\.\d+ /m);
    expect(result.stdout).toMatch(
      /^ {2}! Python +missing +Python plugins cannot run; python3 is not on PATH: they need Python 3\.8 or newer/m,
    );
    expect(result.stdout).toMatch(
      /^ {2}! uv +missing +Python plugins start with python3 directly \(fine for stdlib plugins\)/m,
    );
    expect(result.stdout).toMatch(/^ {2}! Go +missing +Go plugins cannot run/m);
    expect(result.stdout).toMatch(/^ {2}! npm +missing +the ts template cannot be installed/m);
    expect(result.stdout).toMatch(/^ {2}✓ dev key +Ed25519 /m);
    expect(result.stdout).not.toContain("✗");
  });

  it("finds the tools on the injected PATH and reports their versions in --json", async () => {
    const bin = await fakeTools({
      python3: "Python 3.12.1",
      uv: "uv 0.4.18",
      go: "go version go1.22.1 linux/amd64",
      npm: "10.8.2",
    });
    const nexus = tempDir("doctor-nexus-");
    const result = await runCli(["doctor", "--json", "--matrix-nexus-root", nexus], {
      env: testEnv({ PATH: bin }),
    });
    expect(result.code).toBe(0);
    const body = jsonLine(result) as { ok: boolean; checks: Check[] };
    expect(body.ok).toBe(true);
    const versions = Object.fromEntries(body.checks.map((c) => [c.id, [c.status, c.version]]));
    expect(versions).toMatchObject({
      python: ["ok", "3.12.1"],
      uv: ["ok", "0.4.18"],
      go: ["ok", "1.22.1"],
      npm: ["ok", "10.8.2"],
      nexus: ["ok", undefined],
    });
  });

  it("takes the Nexus checkout from ANNA_NEXUS_ROOT", async () => {
    const empty = await fakeTools({});
    const result = await runCli(["doctor", "--json"], {
      env: testEnv({ PATH: empty, ANNA_NEXUS_ROOT: path.join(empty, "missing") }),
    });
    const body = jsonLine(result) as { checks: Check[] };
    expect(body.checks.find((c) => c.id === "nexus")).toMatchObject({
      status: "warn",
      found: "missing",
    });
  });

  it("says plugins run without a supervisor when bwrap is not on PATH, and when it is turned off", async () => {
    const empty = await fakeTools({});
    const missing = await runCli(["doctor"], { env: testEnv({ PATH: empty }) });
    expect(missing.stdout).toMatch(
      /^ {2}! supervisor +missing +bwrap is not on PATH \(Debian\/Ubuntu: apt install bubblewrap\): plugins run in a process group only: a helper that leaves it \(setsid\) survives a host killed with SIGKILL$/m,
    );
    const off = await runCli(["doctor", "--json"], {
      env: testEnv({ ANNA_EXECUTA_SUPERVISOR: "none" }),
    });
    const body = jsonLine(off) as { checks: Check[] };
    expect(body.checks.find((c) => c.id === "supervisor")).toMatchObject({
      status: "warn",
      found: "off",
      detail: expect.stringMatching(/^turned off \(ANNA_EXECUTA_SUPERVISOR=none\): /) as unknown,
    });
  });

  const supervisor = probeSupervisor();
  it.skipIf(supervisor.kind === "none")(
    `reports bwrap as the supervisor where it can create a PID namespace${supervisor.kind === "none" ? ` — skipped: ${supervisor.reason}` : ""}`,
    async () => {
      const result = await runCli(["doctor", "--json"], { env: testEnv() });
      const body = jsonLine(result) as { checks: (Check & { path?: string })[] };
      expect(body.checks.find((c) => c.id === "supervisor")).toMatchObject({
        status: "ok",
        found: "bwrap",
        path: supervisor.kind === "bwrap" ? supervisor.bwrap : "",
      });
    },
  );

  it("rejects stray arguments with exit 2", async () => {
    const result = await runCli(["doctor", "now"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("error: unexpected argument 'now' (see: anna-app doctor --help)\n");
  });
});
