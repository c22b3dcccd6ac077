// The conformance suite against one plugin folder, in any language: one long-running process for
// the protocol and contract checks (restarted, as the host would, if a check crashed it), then a
// fresh one for the checks that need a clean start (no handshake, a bad line). Every check is
// judged on its own; the report lists them in a fixed order with stable ids.

import { randomBytes } from "node:crypto";
import type { ExecutaManifest } from "@anna-ai/app-schema";
import { contractCases, type ContractCase, type ContractOptions } from "../contract-cases.js";
import type { StartDirOptions } from "../start-plugin.js";
import { CHECKS, selected, unknownSelectors, type CheckDefinition } from "./check-catalog.js";
import { checkCancellation, checkConcurrent, checkReverseInvokeId } from "./checks/concurrency.js";
import { checkContractCase, contractCheck } from "./checks/contract.js";
import { checkManifest, checkParameters } from "./checks/describe.js";
import { checkBadArguments, checkParseError, checkUnknownTool } from "./checks/errors.js";
import { checkLargeRequest, checkLargeResponses, checkNonJsonStdout } from "./checks/frames.js";
import { checkInitialize, checkUnknownMethod, checkWithoutInitialize } from "./checks/handshake.js";
import { checkHealth, checkShutdown } from "./checks/lifecycle.js";
import { KitSession } from "./kit-session.js";
import { summarise, type CheckResult, type ConformanceReport } from "./report.js";
import { runCheck, skip, type Verdict } from "./verdict.js";

export interface ConformanceOptions extends StartDirOptions {
  /** Check ids or dotted prefixes to run (`handshake`, `contract.greet`); default: all. */
  only?: readonly string[];
  /** Valid values the manifest cannot express, per tool and parameter (see contractCases). */
  samples?: ContractOptions["samples"];
  /** Called as each check finishes (progress output). */
  onResult?: (result: CheckResult) => void;
  /** Stops the run: the plugin is stopped and runConformance rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** `--only` names no check: a usage error, raised before the plugin starts. */
export class ConformanceSelectorError extends Error {
  constructor(readonly selectors: readonly string[]) {
    super(
      `--only ${selectors.map((s) => JSON.stringify(s)).join(", ")} matches no check; use a check id or a prefix such as handshake, describe, errors, frames, invoke, reverse, lifecycle, contract`,
    );
    this.name = "ConformanceSelectorError";
  }
}

const NO_MANIFEST = "describe failed, so the kit has no tools to call";

class Run {
  readonly results: CheckResult[] = [];
  protocolVersion: ConformanceReport["plugin"]["protocolVersion"] = "unknown";
  manifest: ExecutaManifest | undefined;
  cases: ContractCase[] = [];

  constructor(
    readonly options: ConformanceOptions,
    public session: KitSession,
    /** Part of every invoke id, so ids from two runs never collide in a log. */
    private readonly runId: string,
  ) {}

  static async start(options: ConformanceOptions): Promise<Run> {
    const runId = randomBytes(3).toString("hex");
    return new Run(options, await KitSession.start(options, runId), runId);
  }

  wants(id: string): boolean {
    return selected(id, this.options.only);
  }

  async check(definition: CheckDefinition, body: () => Promise<Verdict> | Verdict): Promise<void> {
    if (!this.wants(definition.id)) return;
    this.options.signal?.throwIfAborted();
    await this.live();
    const result = await runCheck(definition, async () => body());
    this.results.push(result);
    this.options.onResult?.(result);
  }

  /** With a manifest, or skipped saying why there is none. */
  async withManifest(
    definition: CheckDefinition,
    body: (manifest: ExecutaManifest) => Promise<Verdict> | Verdict,
  ): Promise<void> {
    const manifest = this.manifest;
    await this.check(definition, () =>
      manifest === undefined ? skip(NO_MANIFEST) : body(manifest),
    );
  }

  /** A check crashed the plugin: start another, as the host restarts a crashed plugin. */
  private async live(): Promise<void> {
    if (!this.session.exited) return;
    await this.session.dispose();
    this.session = await KitSession.start(this.options, this.runId);
    if (this.protocolVersion === "2.0")
      await this.session.client.initialize().catch(() => undefined);
  }

  /** A fresh process for checks that need one; always stopped. */
  async fresh(body: (session: KitSession) => Promise<void>): Promise<void> {
    this.options.signal?.throwIfAborted();
    const session = await KitSession.start(this.options, this.runId);
    const main = this.session;
    this.session = session;
    try {
      await body(session);
    } finally {
      this.session = main;
      await session.dispose();
    }
  }
}

async function protocolChecks(run: Run): Promise<void> {
  // The handshake and describe always run: every other check needs their outcome.
  const init = await runCheck(
    CHECKS.initialize,
    async () => {
      const outcome = await checkInitialize(run.session);
      run.protocolVersion = outcome.protocolVersion;
      return outcome.verdict;
    },
    "answer initialize within 5 s (the host's wait): the handshake result, or -32601 for protocol 1.1",
  );
  if (run.wants(init.id)) record(run, init);
  let parameterWarnings: Parameters<typeof checkParameters>[1] = [];
  const described = await runCheck(CHECKS.manifest, async () => {
    const outcome = await checkManifest(run.session);
    run.manifest = outcome.manifest;
    parameterWarnings = outcome.parameterWarnings;
    return outcome.verdict;
  });
  if (run.wants(described.id)) record(run, described);
  if (run.manifest !== undefined)
    run.cases = contractCases(run.manifest, { samples: run.options.samples ?? {} });

  await run.withManifest(CHECKS.parameters, (m) => checkParameters(m, parameterWarnings));
  await run.check(CHECKS.health, () => checkHealth(run.session));
  await run.check(CHECKS.unknownMethod, () => checkUnknownMethod(run.session));
  await run.withManifest(CHECKS.unknownTool, () => checkUnknownTool(run.session));
  await run.withManifest(CHECKS.badArguments, () => checkBadArguments(run.session, run.cases));
  for (const testCase of run.cases) {
    await run.check(contractCheck(testCase), () => checkContractCase(run.session, testCase));
  }
  await run.withManifest(CHECKS.largeRequest, (m) => checkLargeRequest(run.session, m, run.cases));
  await run.withManifest(CHECKS.concurrent, () => checkConcurrent(run.session, run.cases));
  await run.withManifest(CHECKS.cancellation, () => checkCancellation(run.session, run.cases));
  // What the plugin did over the whole session, judged once the invokes are done.
  await run.check(CHECKS.reverseInvokeId, () => checkReverseInvokeId(run.session));
  await run.check(CHECKS.largeResponse, () => checkLargeResponses(run.session));
  await run.check(CHECKS.nonJsonStdout, () => checkNonJsonStdout(run.session));
  await run.check(CHECKS.shutdown, () => checkShutdown(run.session));
}

function record(run: Run, result: CheckResult): void {
  run.results.push(result);
  run.options.onResult?.(result);
}

async function freshProcessChecks(run: Run): Promise<void> {
  if (!run.wants(CHECKS.withoutInitialize.id) && !run.wants(CHECKS.parseError.id)) return;
  const valid = run.cases.find((c) => c.expect === "accepted");
  await run.fresh(async (session) => {
    await run.check(CHECKS.withoutInitialize, () => checkWithoutInitialize(session, valid));
    await run.check(CHECKS.parseError, () => checkParseError(session));
  });
}

/**
 * Run the suite against the plugin in `options.dir`. Throws the host's LaunchError when there is
 * nothing to start and ConformanceSelectorError for an `only` that matches no check; every
 * misbehaviour of the plugin itself is a result, never a throw.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const bad = unknownSelectors(options.only ?? []);
  if (bad.length > 0) throw new ConformanceSelectorError(bad);
  options.signal?.throwIfAborted();
  const started = performance.now();
  const run = await Run.start(options);
  const { spec } = run.session.started;
  // Stopping the plugin ends every wait at once; the next check then throws the reason.
  const stop = (): void => void run.session.dispose();
  options.signal?.addEventListener("abort", stop, { once: true });
  try {
    try {
      await protocolChecks(run);
    } finally {
      await run.session.dispose();
    }
    await freshProcessChecks(run);
  } finally {
    options.signal?.removeEventListener("abort", stop);
  }
  options.signal?.throwIfAborted();
  const contractOnly = (options.only ?? []).filter((s) => s.startsWith("contract"));
  if (
    contractOnly.length > 0 &&
    contractOnly.length === (options.only ?? []).length &&
    run.results.length === 0 &&
    run.manifest !== undefined
  ) {
    throw new ConformanceSelectorError(contractOnly);
  }
  const summary = summarise(run.results);
  return {
    version: 1,
    ok: summary.fail === 0,
    plugin: {
      dir: options.dir,
      toolId: spec.toolId,
      command: spec.command,
      protocolVersion: run.protocolVersion,
      launchWarnings: spec.warnings,
    },
    summary,
    results: run.results,
    durationMs: Math.round(performance.now() - started),
  };
}
