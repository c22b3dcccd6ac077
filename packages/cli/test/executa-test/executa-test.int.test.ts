// The built CLI (`node packages/cli/bin/anna-app.js executa test …`) spawned as CI runs it: the
// table, --json, --junit, --only, and the exit codes (0 conforms, 1 a check failed, 2 usage or
// launch error) against the examples and the kit's fault-injecting fixture.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ConformanceReport } from "@anna-ai/executa-test";
import { REPO, example, jsonLine, runCli, tempDir } from "../executa-dev/helpers.js";

const FIXTURE = path.join(REPO, "packages/executa-test/test/fixtures/conformance");
/** A whole suite against a Node plugin; the CLI's own 20 s default is for one-shot commands. */
const RUN_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 90_000;

describe("anna-app executa test (built CLI)", () => {
  it(
    "exits 0 on ts-notes with one JSON report on stdout",
    async () => {
      const r = await runCli(["executa", "test", "--dir", example("ts-notes"), "--json"], {
        timeoutMs: RUN_TIMEOUT_MS,
      });
      expect(r.code, r.stderr).toBe(0);
      const report = jsonLine(r) as ConformanceReport;
      expect(report).toMatchObject({ version: 1, ok: true, summary: { fail: 0, warn: 0 } });
      expect(report.plugin.toolId).toBe("tool-examples-ts-notes-00000001");
      expect(report.results.map((c) => c.id)).toContain("lifecycle.shutdown");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "exits 1 with the finding in the table and in the JUnit file when a check fails",
    async () => {
      const dir = tempDir("executa-test-junit-");
      const junit = path.join(dir, "conformance.xml");
      const r = await runCli(
        ["executa", "test", "--dir", FIXTURE, "--junit", junit, "--timeout", "3000"],
        {
          env: { CONFORMANCE_FAULTS: "unknown-tool-success,stdout-banner" },
          timeoutMs: RUN_TIMEOUT_MS,
        },
      );
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toMatch(
        /^✗ errors\.unknown-tool +invoke of an unknown tool is answered -32601 +\[L1005, L1011, L8525\] \d+ ms$/m,
      );
      expect(r.stdout).toMatch(
        /^ {4}did: {4}unknown tool answered success: true: \{"jsonrpc":"2\.0"/m,
      );
      expect(r.stdout).toMatch(
        /^ {4}should: answer an invoke of a tool the manifest does not declare with error -32601/m,
      );
      expect(r.stdout).toMatch(/^! frames\.non-json-stdout /m);
      expect(r.stdout).toMatch(
        /^\d+ checks: \d+ passed, 1 failed, 1 warning, 0 skipped in [\d.]+ s$/m,
      );
      expect(r.stdout).toContain("does not conform: fix the failed checks above");
      // NO_COLOR (set by the helper): no escape codes.
      expect(r.stdout).not.toContain("\u001b[");
      const xml = readFileSync(junit, "utf8");
      expect(xml).toMatch(
        /<testsuite name="conformance-fixture" tests="\d+" failures="1" errors="0" skipped="0"/,
      );
      expect(xml).toContain(
        '<testcase classname="conformance-fixture.errors" name="errors.unknown-tool: invoke of an unknown tool is answered -32601"',
      );
      expect(xml).toMatch(
        /<failure message="unknown tool answered success: true: \{&quot;jsonrpc&quot;/,
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "runs only the selected checks, comma-separated or repeated, in colour when forced",
    async () => {
      const r = await runCli(
        [
          "executa",
          "test",
          "--dir",
          FIXTURE,
          "--only",
          "handshake.initialize,lifecycle.health",
          "--only",
          "contract.remember",
        ],
        { env: { NO_COLOR: undefined, FORCE_COLOR: "1" }, timeoutMs: RUN_TIMEOUT_MS },
      );
      expect(r.code, r.stderr).toBe(0);
      // eslint-disable-next-line no-control-regex -- the colour codes around each id are the point
      const ids = [...r.stdout.matchAll(/✓\u001b\[39m \u001b\[32m([^\s\u001b]+)/g)].map(
        (m) => m[1],
      );
      expect(ids).toEqual([
        "handshake.initialize",
        "lifecycle.health",
        "contract.remember.valid.required",
        "contract.remember.missing.key",
        "contract.remember.wrong-type.key",
      ]);
    },
    TEST_TIMEOUT_MS,
  );

  it("exits 2 for a selector that matches no check, before starting the plugin", async () => {
    const r = await runCli(["executa", "test", "--dir", FIXTURE, "--only", "lifecycle.shutdwn"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: --only "lifecycle\.shutdwn" matches no check; use a check id or a prefix/,
    );
    expect(r.stdout).toBe("");
  });

  it.each([
    [
      ["--timeout", "soon"],
      /^error: --timeout "soon" is not a whole number of milliseconds between 100 and 600000 \(see: anna-app executa test --help\)$/m,
    ],
    [["--samples", "{oops"], /^error: --samples is not valid JSON/m],
    [
      ["--samples", '{"echo": 3}'],
      /^error: --samples must be an object of tools, each an object of parameter values/m,
    ],
    [["--bogus"], /^error: unknown option '--bogus'/m],
    [["extra"], /^error: unexpected argument 'extra'; name the plugin folder with --dir/m],
  ])("exits 2 for bad usage %j", async (args, message) => {
    const r = await runCli(["executa", "test", "--dir", FIXTURE, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it("exits 2 with the launch error when the folder holds no plugin", async () => {
    const dir = tempDir("executa-test-empty-");
    const r = await runCli(["executa", "test", "--dir", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*executa-test-empty-/m);
  });

  it("exits 2 when the JUnit file cannot be written, naming it", async () => {
    const junit = path.join(tempDir("executa-test-nodir-"), "missing", "out.xml");
    const r = await runCli(
      ["executa", "test", "--dir", FIXTURE, "--only", "lifecycle.health", "--junit", junit],
      { timeoutMs: RUN_TIMEOUT_MS },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot write --junit ${junit}`);
    expect(existsSync(junit)).toBe(false);
  });
});
