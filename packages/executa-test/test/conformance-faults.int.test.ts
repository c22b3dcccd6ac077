// The conformance suite against its fixture: clean, every check passes; with one fault injected
// (CONFORMANCE_FAULTS), the check for that rule fails (or warns) with the finding that names what
// the plugin did and what it should do. Then the host's own misbehaving fixtures.

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CHECK_IDS,
  runConformance,
  type CheckResult,
  type CheckStatus,
  type ConformanceOptions,
  type ConformanceReport,
} from "@anna-ai/executa-test";
import { CONFORMANCE_DIR, HOST_FIXTURES_DIR, LENIENT_DIR } from "./helpers.js";

/** Short: the fixtures answer at once, and a fault that hangs must not stall the file. */
const TIMEOUT_MS = 3_000;
const RUN_TEST_TIMEOUT_MS = 60_000;

function faulty(faults: string, only?: string[]): Promise<ConformanceReport> {
  return runConformance({
    dir: CONFORMANCE_DIR,
    env: { CONFORMANCE_FAULTS: faults },
    timeoutMs: TIMEOUT_MS,
    ...(only === undefined ? {} : { only }),
  });
}

function result(report: ConformanceReport, id: string): CheckResult {
  const found = report.results.find((r) => r.id === id);
  if (found === undefined)
    throw new Error(`no result for ${id} in ${report.results.map((r) => r.id).join(", ")}`);
  return found;
}

describe("the conformance fixture without faults", () => {
  it(
    "passes every protocol check and every contract check",
    async () => {
      const report = await runConformance({ dir: CONFORMANCE_DIR, timeoutMs: TIMEOUT_MS });
      const notPassed = report.results.filter((r) => r.status !== "pass");
      expect(notPassed).toEqual([]);
      expect(report.ok).toBe(true);
      expect(report.plugin).toMatchObject({
        toolId: "conformance-fixture",
        protocolVersion: "2.0",
      });
      expect(report.results.map((r) => r.id)).toEqual(expect.arrayContaining([...CHECK_IDS]));
      expect(report.results.map((r) => r.id)).toEqual(
        expect.arrayContaining([
          "contract.echo.valid.required",
          "contract.echo.valid.all",
          "contract.echo.missing.text",
          "contract.echo.wrong-type.times",
          "contract.remember.missing.key",
        ]),
      );
      expect(result(report, "frames.large-response").note).toMatch(/by file transport/);
      expect(result(report, "invoke.cancellation").note).toMatch(
        /while its reverse call was pending/,
      );
      for (const r of report.results) expect(r.spec).toMatch(/^(L\d+|H\d|T\d)/);
    },
    RUN_TEST_TIMEOUT_MS,
  );
});

interface FaultCase {
  fault: string;
  only?: string[];
  id: string;
  status: CheckStatus;
  observed: RegExp;
  expected: RegExp;
}

const FAULTS: FaultCase[] = [
  {
    fault: "version-2.1",
    id: "handshake.initialize",
    status: "fail",
    observed: /^initialize answered protocolVersion "2\.1" to an offer of "2\.0"$/,
    expected: /echo protocolVersion "2\.0" exactly/,
  },
  {
    fault: "answer-unknown-method",
    id: "handshake.unknown-method",
    status: "fail",
    observed:
      /^"conformance\/no-such-method" was answered with a result: \{"jsonrpc":"2\.0","id":\d+,"result":\{\}\}$/,
    expected: /error -32601/,
  },
  {
    fault: "describe-needs-initialize",
    id: "handshake.v1-fallback",
    status: "fail",
    observed: /^describe before initialize was not answered with the manifest: .*"code":-32002/,
    expected: /a protocol 1\.1 host never sends it/,
  },
  {
    fault: "bad-default",
    id: "describe.parameters",
    status: "fail",
    observed: /^echo\.times: default "once" is not integer$/,
    expected: /of the parameter's own type/,
  },
  {
    fault: "health-status",
    id: "lifecycle.health",
    status: "warn",
    observed: /^health answered status "broken"/,
    expected: /"status":"ready"/,
  },
  {
    fault: "unknown-tool-success",
    id: "errors.unknown-tool",
    status: "fail",
    observed: /^unknown tool answered success: true/,
    expected: /error -32601/,
  },
  {
    fault: "missing-arg-success",
    only: ["errors.bad-arguments"],
    id: "errors.bad-arguments",
    status: "fail",
    observed: /^invoke echo without required "text" answered success: true/,
    expected: /-32602 \(Invalid params\) naming "text"/,
  },
  {
    fault: "missing-arg-success",
    only: ["contract.echo"],
    id: "contract.echo.wrong-type.times",
    status: "fail",
    observed:
      /^contract case "echo: "times" of the wrong type \(string for integer\)" with arguments .*got success: true/,
    expected: /refuse the arguments/,
  },
  {
    fault: "die-on-garbage",
    id: "errors.parse-error",
    status: "fail",
    observed: /^after the line "\{this is not json" the plugin stopped serving: plugin exited/,
    expected: /-32700.*keep reading stdin/,
  },
  {
    fault: "line-limit-64k",
    id: "frames.large-request",
    status: "fail",
    observed: /^invoke echo with "text" of 600 KiB on one line: plugin exited .*code":1/,
    expected: /read stdin lines of any length/,
  },
  {
    fault: "inline-large",
    only: ["frames"],
    id: "frames.large-response",
    status: "fail",
    observed: /^a response of \d+ bytes was sent inline, over the 2097152-byte line ceiling$/,
    expected: /__file_transport/,
  },
  {
    fault: "bad-pointer",
    only: ["frames"],
    id: "frames.large-response",
    status: "fail",
    observed: /^a __file_transport pointer could not be read: .*elsewhere-.* is outside/,
    expected: /OS temp dir/,
  },
  {
    fault: "stdout-banner",
    id: "frames.non-json-stdout",
    status: "warn",
    observed:
      /^stdout carried 1 line\(s\) that are not JSON-RPC frames, first: "conformance fixture ready"/,
    expected: /write logs to stderr/,
  },
  {
    fault: "global-id",
    only: ["invoke.concurrent"],
    id: "invoke.concurrent",
    status: "fail",
    observed: /^1 of 3 concurrent invokes went wrong: remember: timed out/,
    expected: /each with its own request id/,
  },
  {
    fault: "no-invoke-id",
    only: ["invoke.concurrent", "reverse.invoke-id"],
    id: "reverse.invoke-id",
    status: "fail",
    // Two or three: whether the first echo's answer is read before the reverse call is timing.
    observed:
      /reverse call\(s\) could not be routed \(MISSING_INVOKE_CONTEXT\), first: storage\/get with no invoke_id while [23] invoke\(s\) were in flight$/,
    expected: /echo params\.context\.invoke_id/,
  },
  {
    fault: "crash-on-abort",
    only: ["contract.remember", "invoke.cancellation"],
    id: "invoke.cancellation",
    status: "fail",
    observed:
      /^after the host abandoned invoke remember while its reverse call was pending, the plugin stopped serving: plugin exited .*"code":3/,
    expected: /keep serving other requests/,
  },
  {
    fault: "exit-nonzero",
    only: ["lifecycle.shutdown"],
    id: "lifecycle.shutdown",
    status: "fail",
    observed: /^the plugin exited with code 1 after stdin EOF$/,
    expected: /exit 0 on a requested shutdown/,
  },
];

describe("the conformance fixture with one fault", () => {
  it.each(FAULTS)(
    "$fault: $id $status",
    async ({ fault, only, id, status, observed, expected }) => {
      const report = await faulty(fault, only ?? [id]);
      const found = result(report, id);
      expect(found.status, JSON.stringify(found)).toBe(status);
      expect(found.finding?.observed).toMatch(observed);
      expect(found.finding?.expected).toMatch(expected);
      expect(report.ok).toBe(status !== "fail");
    },
    RUN_TEST_TIMEOUT_MS,
  );

  it(
    "reports a helper left in the process group (without the sandbox, which would kill it)",
    async () => {
      const report = await runConformance({
        dir: CONFORMANCE_DIR,
        env: { CONFORMANCE_FAULTS: "leave-helper" },
        supervisor: "none",
        only: ["lifecycle.shutdown"],
        timeoutMs: TIMEOUT_MS,
      });
      expect(result(report, "lifecycle.shutdown")).toMatchObject({
        status: "fail",
        finding: {
          observed:
            "the plugin exited but left processes in its process group (the host killed them)",
        },
      });
    },
    RUN_TEST_TIMEOUT_MS,
  );
});

function hostFixture(
  file: string,
  extra: Partial<ConformanceOptions> = {},
): Promise<ConformanceReport> {
  return runConformance({
    dir: HOST_FIXTURES_DIR,
    detect: { pluginFile: file },
    timeoutMs: TIMEOUT_MS,
    ...extra,
  });
}

describe("the host's misbehaving fixtures", () => {
  it(
    "describe-wrapped fails describe.manifest with the pitfall and skips what needs the tools",
    async () => {
      const report = await hostFixture("describe-wrapped.mjs", { only: ["describe", "invoke"] });
      expect(result(report, "describe.manifest")).toMatchObject({
        status: "fail",
        finding: {
          observed: expect.stringMatching(
            /^describe: describe returned \{"manifest": \{\.\.\.\}\}; return the manifest itself/,
          ),
        },
      });
      expect(result(report, "invoke.concurrent")).toMatchObject({
        status: "skip",
        note: expect.stringMatching(/describe failed/),
      });
    },
    RUN_TEST_TIMEOUT_MS,
  );

  it(
    "init-silent fails the handshake with the wait that timed out",
    async () => {
      const report = await hostFixture("init-silent.mjs", { only: ["handshake.initialize"] });
      expect(report.plugin.protocolVersion).toBe("unknown");
      expect(result(report, "handshake.initialize")).toMatchObject({
        status: "fail",
        finding: {
          observed: expect.stringMatching(
            /^timed out after 3000 ms waiting for response to initialize/,
          ),
          expected: expect.stringMatching(/-32601/),
        },
      });
    },
    RUN_TEST_TIMEOUT_MS,
  );

  it(
    "stdout-garbage warns with the count of every skipped line and the first of them",
    async () => {
      const report = await hostFixture("stdout-garbage.mjs", { only: ["frames.non-json-stdout"] });
      expect(result(report, "frames.non-json-stdout")).toMatchObject({
        status: "warn",
        finding: {
          observed: expect.stringMatching(
            /^stdout carried 2 line\(s\) that are not JSON-RPC frames, first: "Starting garbage plugin v1\.0\.\.\."/,
          ),
        },
      });
      expect(report.ok).toBe(true);
    },
    RUN_TEST_TIMEOUT_MS,
  );

  it(
    "ignore-sigterm fails shutdown: it took SIGKILL",
    async () => {
      const report = await hostFixture("ignore-sigterm.mjs", { only: ["lifecycle.shutdown"] });
      expect(result(report, "lifecycle.shutdown")).toMatchObject({
        status: "fail",
        finding: {
          observed: expect.stringMatching(
            /^the plugin did not exit within 5000 ms of stdin EOF; the host had to send SIGTERM and, 5000 ms later, SIGKILL/,
          ),
        },
      });
    },
    RUN_TEST_TIMEOUT_MS,
  );

  it(
    "the lenient fixture (protocol 1.1, no argument checks) fails its contract checks",
    async () => {
      const report = await runConformance({
        dir: LENIENT_DIR,
        timeoutMs: TIMEOUT_MS,
        only: ["handshake.initialize", "contract.echo"],
      });
      expect(report.plugin.protocolVersion).toBe("1.1");
      expect(report.results.filter((r) => r.status === "fail").map((r) => r.id)).toEqual([
        "contract.echo.missing.text",
        "contract.echo.wrong-type.text",
        "contract.echo.wrong-type.times",
      ]);
    },
    RUN_TEST_TIMEOUT_MS,
  );
});

describe("selecting and stopping", () => {
  it("refuses an --only that matches no check before starting the plugin", async () => {
    await expect(
      runConformance({ dir: join(CONFORMANCE_DIR, "missing"), only: ["handshak"] }),
    ).rejects.toThrow(
      /^--only "handshak" matches no check; use a check id or a prefix such as handshake/,
    );
  });

  it(
    "stops the plugin and rejects when the signal aborts mid-run",
    async () => {
      const abort = new AbortController();
      const seen: string[] = [];
      const run = runConformance({
        dir: CONFORMANCE_DIR,
        timeoutMs: TIMEOUT_MS,
        signal: abort.signal,
        onResult: (r) => {
          seen.push(r.id);
          if (seen.length === 2) abort.abort(new Error("stop now"));
        },
      });
      await expect(run).rejects.toThrow("stop now");
      expect(seen.length).toBeLessThan(5);
    },
    RUN_TEST_TIMEOUT_MS,
  );
});
