// Each doctor check with the machine faked: which tools exist, what versions they print.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { createStyle } from "../../src/cli/style.js";
import { createDoctorCommand } from "../../src/commands/doctor.js";
import type { CheckResult } from "../../src/doctor/check.js";
import { compareVersions, parseVersion } from "@anna-ai/executa-host";
import { renderDoctor } from "../../src/doctor/render.js";
import { runDoctor, type DoctorOptions } from "../../src/doctor/run-doctor.js";

/** A machine with exactly these tools: command → the version its probe reports. */
function machine(
  tools: Record<string, string | undefined>,
  extra: Partial<DoctorOptions> = {},
): DoctorOptions {
  return {
    env: {},
    nodeVersion: "20.19.0",
    nodePath: "/usr/bin/node",
    which: (command) => (command in tools ? `/bin/${command}` : undefined),
    versionOf: (executable) => Promise.resolve(tools[executable.replace("/bin/", "")]),
    devKey: () => Promise.resolve("Ed25519"),
    supervisor: { kind: "bwrap", bwrap: "/bin/bwrap", env: "/bin/env" },
    ...extra,
  };
}

const ALL = { npm: "10.8.2", python3: "3.11.7", uv: "0.4.18", go: "1.22.1" };

function byId(checks: CheckResult[], id: string): CheckResult {
  const found = checks.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no check ${id}`);
  return found;
}

function fakeIo(): { io: CliIo; out: () => string } {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on("data", (c: Buffer) => chunks.push(c));
  const io: CliIo = {
    stdin: new PassThrough(),
    stdout,
    stderr: new PassThrough(),
    env: {},
    cwd: "/",
    style: createStyle(false),
    errStyle: createStyle(false),
  };
  return { io, out: () => Buffer.concat(chunks).toString("utf8") };
}

describe("doctor checks", () => {
  it("passes everything on a complete machine (Nexus root given)", async () => {
    const report = await runDoctor(machine(ALL, { nexusRoot: "/" }));
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ["node", "ok"],
      ["npm", "ok"],
      ["python", "ok"],
      ["uv", "ok"],
      ["go", "ok"],
      ["dev-key", "ok"],
      ["nexus", "ok"],
      ["supervisor", "ok"],
    ]);
    expect(byId(report.checks, "go").version).toBe("1.22.1");
  });

  it("marks each missing optional tool ! with what it disables, and stays ok", async () => {
    const report = await runDoctor(machine({}));
    expect(report.ok).toBe(true);
    const detail = (id: string) => byId(report.checks, id);
    expect(detail("uv")).toMatchObject({ status: "warn", found: "missing" });
    expect(detail("uv").detail).toMatch(
      /^Python plugins start with python3 directly \(fine for stdlib plugins\)/,
    );
    // The consequence, then the line a plugin launch prints: tool, version wanted, found.
    expect(detail("python").detail).toBe(
      "Python plugins cannot run; python3 is not on PATH: they need Python 3.8 or newer (the templates and SDKs), found none; install it (https://www.python.org/downloads/) or put it on PATH",
    );
    expect(detail("go").detail).toMatch(
      /^Go plugins cannot run .*; go is not on PATH: they need Go 1\.19 or newer .*, found none; install it/,
    );
    expect(detail("npm").detail).toMatch(/^the ts template cannot be installed or built/);
    expect(detail("nexus")).toMatchObject({ status: "warn", found: "not set" });
  });

  it("falls back to `python` when there is no python3", async () => {
    const report = await runDoctor(machine({ python: "3.9.1" }));
    expect(byId(report.checks, "python")).toMatchObject({ status: "ok", version: "3.9.1" });
  });

  it("warns about a Python or Go older than the templates need", async () => {
    const report = await runDoctor(machine({ python3: "3.6.9", go: "1.17.2" }));
    expect(byId(report.checks, "python")).toMatchObject({ status: "warn", version: "3.6.9" });
    expect(byId(report.checks, "go").detail).toMatch(
      /older than 1\.19.*; go is too old: they need Go 1\.19 or newer .*, found 1\.17\.2 /,
    );
    expect(report.ok).toBe(true);
  });

  it("warns when a tool is on PATH but its version probe fails", async () => {
    const report = await runDoctor(machine({ python3: undefined }));
    expect(byId(report.checks, "python")).toMatchObject({ status: "warn", found: "broken" });
  });

  it("fails a Node older than 20.19, which is required", async () => {
    const report = await runDoctor(machine(ALL, { nodeVersion: "20.18.3" }));
    expect(report.ok).toBe(false);
    expect(byId(report.checks, "node")).toMatchObject({ status: "fail", required: true });
  });

  it("fails when no dev key can be made, which is required", async () => {
    const report = await runDoctor(
      machine(ALL, { devKey: () => Promise.reject(new Error("Ed25519 unsupported")) }),
    );
    expect(report.ok).toBe(false);
    expect(byId(report.checks, "dev-key").detail).toContain("Ed25519 unsupported");
  });

  it("makes a real dev key and mints a token with it by default", async () => {
    const report = await runDoctor({ ...machine(ALL), devKey: undefined } as DoctorOptions);
    expect(byId(report.checks, "dev-key")).toMatchObject({ status: "ok", found: "Ed25519" });
  });

  it("warns, with the reason, when no supervisor can run plugins, and stays ok", async () => {
    const reason = "bwrap cannot create a PID namespace here: No permissions";
    const report = await runDoctor(machine(ALL, { supervisor: { kind: "none", reason } }));
    expect(report.ok).toBe(true);
    expect(byId(report.checks, "supervisor")).toMatchObject({
      status: "warn",
      found: "missing",
      detail: `${reason}: plugins run in a process group only: a helper that leaves it (setsid) survives a host killed with SIGKILL`,
    });
  });

  it("names ANNA_EXECUTA_SUPERVISOR and its values when it holds something else", async () => {
    const report = await runDoctor(machine(ALL, { env: { ANNA_EXECUTA_SUPERVISOR: "off" } }));
    expect(byId(report.checks, "supervisor")).toMatchObject({
      status: "warn",
      found: "invalid",
      detail: 'ANNA_EXECUTA_SUPERVISOR is "off"; expected one of auto, bwrap, none',
    });
  });

  it("reports a Nexus root that is not a folder", async () => {
    const report = await runDoctor(machine(ALL, { nexusRoot: "/definitely/not/here" }));
    expect(byId(report.checks, "nexus")).toMatchObject({ status: "warn", found: "missing" });
  });
});

describe("doctor command", () => {
  it("prints the table and exits 0 when only optional pieces are missing", async () => {
    const { io, out } = fakeIo();
    const code = await createDoctorCommand(machine({})).run({ flags: {}, positionals: [] }, io);
    expect(code).toBe(0);
    expect(out()).toMatch(/^ {2}! uv +missing +Python plugins start with python3 directly/m);
    expect(out()).toMatch(/^ {2}✓ Node +20\.19\.0 /m);
    expect(out()).toContain("Ready: every required check passed; 5 optional pieces missing");
  });

  it("exits 1 with ✗ on the required piece that is missing", async () => {
    const { io, out } = fakeIo();
    const command = createDoctorCommand(machine(ALL, { nodeVersion: "18.20.4" }));
    const code = await command.run({ flags: {}, positionals: [] }, io);
    expect(code).toBe(1);
    expect(out()).toMatch(/^ {2}✗ Node +18\.20\.4 +Node 18\.20\.4 is older than 20\.19\.0/m);
    expect(out()).toContain("Not ready: Node is required.");
  });

  it("--json prints one line with the same verdict", async () => {
    const { io, out } = fakeIo();
    const command = createDoctorCommand(machine(ALL, { nodeVersion: "18.20.4" }));
    const code = await command.run({ flags: { json: true }, positionals: [] }, io);
    expect(code).toBe(1);
    const lines = out().trim().split("\n");
    expect(lines).toHaveLength(1);
    const body = JSON.parse(lines[0] as string) as { ok: boolean; checks: CheckResult[] };
    expect(body.ok).toBe(false);
    expect(body.checks.map((c) => c.id)).toEqual([
      "node",
      "npm",
      "python",
      "uv",
      "go",
      "dev-key",
      "nexus",
      "supervisor",
    ]);
  });

  it("renders in colour only when asked", async () => {
    const report = await runDoctor(machine({}));
    expect(renderDoctor(report, createStyle(false))).not.toContain("\u001b[");
    expect(renderDoctor(report, createStyle(true))).toContain("\u001b[33m!\u001b[39m");
  });
});

describe("version parsing", () => {
  it.each([
    ["Python 3.11.7", "3.11.7"],
    ["uv 0.4.18 (Homebrew 2024-10-01)", "0.4.18"],
    ["go version go1.19.8 linux/amd64", "1.19.8"],
    ["10.8.2\n", "10.8.2"],
    ["v20.19.0", "20.19.0"],
    ["no version here", undefined],
  ])("reads %j as %s", (output, version) => {
    expect(parseVersion(output)).toBe(version);
  });

  it("compares dotted versions numerically", () => {
    expect(compareVersions("20.19.0", "20.9.9")).toBeGreaterThan(0);
    expect(compareVersions("1.19", "1.19.0")).toBe(0);
    expect(compareVersions("3.8", "3.10")).toBeLessThan(0);
  });
});
