// `anna-app executa test`: the protocol conformance suite of @anna-ai/executa-test against one
// plugin folder, in any language. This module holds only the flag table, so `--help` stays
// instant; the suite loads on run.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import type { CliIo } from "../cli/io.js";
import type { CommandModule } from "./registry.js";

export const NAME = "executa test";

export const spec: CommandSpec = {
  name: NAME,
  summary: "Run the protocol conformance suite against a Tool plugin in any language",
  description:
    "Starts the plugin as the Anna Agent does and runs named checks, each with a stable id and " +
    "the spec lines it enforces: the handshake and the protocol 1.1 fallback, describe and its " +
    "parameter types, the invoke error model (unknown tool, bad arguments, a line that is not " +
    "JSON), health, shutdown (exit in time, no orphan), frames over 512 KiB both ways (file " +
    "transport), non-JSON stdout lines, concurrent invokes with invoke_id on reverse calls, " +
    "cancellation; then contract checks generated from each tool's declared parameters (valid, " +
    "missing required, wrong type). Reverse calls are answered as by a host without those " +
    "services. A failed check says what the plugin did and what it should do; a warning is " +
    "something the host tolerates. Exit codes: 0 every check passed (warnings allowed), 1 a " +
    "check failed, 2 usage or launch error.",
  flags: [
    {
      name: "dir",
      type: "string",
      value: "<dir>",
      description: "Plugin folder (default: the current directory)",
    },
    {
      name: "plugin",
      type: "string",
      value: "<file>",
      description: "Pick one entry in a folder that holds several plugins",
    },
    {
      name: "only",
      type: "string",
      multiple: true,
      value: "<check>",
      description:
        "Run only these checks: an id or a prefix (handshake, describe, errors, frames, invoke, reverse, lifecycle, contract, contract.<tool>); repeatable or comma-separated",
    },
    {
      name: "timeout",
      type: "string",
      value: "<ms>",
      description: "How long to wait for each answer (default 10000; raise it for go run)",
    },
    {
      name: "samples",
      type: "string",
      value: "<json|@file>",
      description:
        'Valid values the manifest cannot express, per tool and parameter: \'{"forecast":{"fields":["temp"]}}\'',
    },
    { name: "json", type: "boolean", description: "Print the report as one JSON line on stdout" },
    {
      name: "junit",
      type: "string",
      value: "<file>",
      description: "Also write the report as JUnit XML (for CI)",
    },
  ],
  // Every flag appears in at least one example (a test holds the list to that).
  examples: [
    "anna-app executa test --dir examples/executas/ts-notes",
    "anna-app executa test --dir ./my-plugin --json",
    "anna-app executa test --dir ./my-plugin --junit reports/conformance.xml",
    "anna-app executa test --dir ./my-plugin --only handshake --only lifecycle.shutdown",
    "anna-app executa test --dir ./my-plugin --only contract.get_weather",
    "anna-app executa test --dir examples/executas/go-hello --timeout 120000",
    "anna-app executa test --dir examples/executas/go-multi --plugin credential_plugin.go",
    'anna-app executa test --dir ./weather --samples \'{"forecast":{"fields":["temp"]}}\'',
    "anna-app executa test --dir ./weather --samples @samples.json",
  ],
};

async function run(args: ParsedArgs, io: CliIo): Promise<number> {
  const { runExecutaTest } = await import("../executa-test/run.js");
  return runExecutaTest(args, io);
}

export const command: CommandModule = { spec, run };
