// `anna-app executa test` itself: flags → runConformance → table or JSON on stdout, JUnit to a
// file. Usage mistakes and launch failures exit 2 before any check runs; Ctrl-C stops the plugin.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { LaunchError } from "@anna-ai/executa-host";
import {
  ConformanceSelectorError,
  conformanceJUnit,
  runConformance,
  type ConformanceOptions,
} from "@anna-ai/executa-test";
import type { ParsedArgs } from "../cli/args.js";
import {
  EXIT_OK,
  EXIT_RUNTIME,
  EXIT_SIGINT,
  EXIT_USAGE,
  ExitError,
  usageError,
} from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { readSamplesFlag } from "./samples-flag.js";
import { formatReport } from "./format-report.js";

const NAME = "executa test";
/** Below this no plugin answers a cold start; above this a run would look hung. */
const MIN_TIMEOUT_MS = 100;
const MAX_TIMEOUT_MS = 600_000;

function parseTimeout(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < MIN_TIMEOUT_MS || ms > MAX_TIMEOUT_MS) {
    throw usageError(
      `--timeout ${JSON.stringify(value)} is not a whole number of milliseconds between ${MIN_TIMEOUT_MS} and ${MAX_TIMEOUT_MS}`,
      NAME,
    );
  }
  return ms;
}

function parseOnly(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [String(value)];
  const selectors = values.flatMap((v) => String(v).split(",")).map((v) => v.trim());
  if (selectors.some((s) => s === "")) throw usageError("--only needs a check id or prefix", NAME);
  return selectors;
}

export async function runExecutaTest(args: ParsedArgs, io: CliIo): Promise<number> {
  if (args.positionals.length > 0) {
    throw usageError(
      `unexpected argument '${args.positionals[0] ?? ""}'; name the plugin folder with --dir`,
      NAME,
    );
  }
  const { flags } = args;
  const timeoutMs = parseTimeout(flags.timeout);
  const only = parseOnly(flags.only);
  const samples = await readSamplesFlag(flags.samples as string | undefined, io.cwd);
  const junit = typeof flags.junit === "string" ? path.resolve(io.cwd, flags.junit) : undefined;
  const dir = path.resolve(io.cwd, typeof flags.dir === "string" ? flags.dir : ".");

  const abort = new AbortController();
  const onSignal = (): void => abort.abort(new Error("interrupted"));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const options: ConformanceOptions = {
    dir,
    baseEnv: io.env,
    detect: {
      env: io.env,
      ...(typeof flags.plugin === "string" ? { pluginFile: flags.plugin } : {}),
    },
    signal: abort.signal,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(only === undefined ? {} : { only }),
    ...(samples === undefined ? {} : { samples }),
  };
  let report;
  try {
    report = await runConformance(options);
  } catch (error) {
    if (abort.signal.aborted) return EXIT_SIGINT;
    if (error instanceof LaunchError || error instanceof ConformanceSelectorError) {
      throw new ExitError(EXIT_USAGE, error.message, { cause: error });
    }
    throw error;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  if (junit !== undefined) {
    try {
      await writeFile(junit, conformanceJUnit(report));
    } catch (error) {
      throw new ExitError(
        EXIT_USAGE,
        `cannot write --junit ${junit}: ${(error as Error).message}; name a file in a folder that exists`,
        { cause: error },
      );
    }
  }
  io.stdout.write(
    flags.json === true ? `${JSON.stringify(report)}\n` : formatReport(report, io.style),
  );
  return report.ok ? EXIT_OK : EXIT_RUNTIME;
}
