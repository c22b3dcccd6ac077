// `anna-app fixture summarize <file…>` (D48, R164): a digest of each recording as a table, or
// one JSON line per file with --json.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import type { CliIo } from "../cli/io.js";
import { exitCode, readRecordings } from "../fixture/each-recording.js";
import { renderSummary } from "../fixture/render.js";
import { summarizeRecording } from "../fixture/summarize.js";
import type { CommandModule } from "./registry.js";

const NAME = "fixture summarize";

const spec: CommandSpec = {
  name: NAME,
  summary: "Digest a recording: calls per namespace and method, errors, durations, top tools",
  description:
    "Session length, records per kind, calls per namespace and per ns.method with ok/error and " +
    "req→res durations (p50/p95/max ms), error codes, top tools, events by name, and the " +
    "sampling (llm.*, sampling/*) and storage call counts. Reads the same three styles as " +
    "verify; lines that cannot be read are skipped and counted. Exit 2 when a file cannot be read.",
  positionals: [
    { name: "file…", description: "JSONL recordings (several allowed)", required: true },
  ],
  flags: [{ name: "json", type: "boolean", description: "One JSON line per file with the digest" }],
  examples: [
    "anna-app fixture summarize fixtures/happy-path.jsonl",
    "anna-app fixture summarize fixtures/happy-path.jsonl --json",
    "anna-app fixture summarize session.jsonl   # an executa dev --record transcript",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const json = args.flags.json === true;
    const { inputs, failed } = await readRecordings(args.positionals, io, NAME, json);
    inputs.forEach(({ file, recording }, index) => {
      const digest = summarizeRecording(file, recording);
      if (json) io.stdout.write(JSON.stringify(digest) + "\n");
      else io.stdout.write((index > 0 ? "\n" : "") + renderSummary(digest, io.style));
    });
    return exitCode(failed, false);
  },
};
