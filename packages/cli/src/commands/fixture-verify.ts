// `anna-app fixture verify <file…>` (D47, R164): schema and invariant checks on recordings, one
// `file:line: message` per issue. Exit 1 when any error, 2 when a file cannot be read.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import type { CliIo } from "../cli/io.js";
import { exitCode, readRecordings } from "../fixture/each-recording.js";
import { errorCount } from "../fixture/recording.js";
import { renderVerify } from "../fixture/render.js";
import type { CommandModule } from "./registry.js";

const NAME = "fixture verify";

const spec: CommandSpec = {
  name: NAME,
  summary: "Check recordings: each line parses, calls pair with answers, t never goes backwards",
  description:
    "Reads session recordings (kind: meta|req|res|event, as anna-app dev writes them), the guide's " +
    "dir: out|in lines, and executa dev --record transcripts. Checks: valid JSON objects, known " +
    "kinds, meta first, unique ids, every res after a req with its id, ok/result/error " +
    "consistent, known Host API methods, t monotonic. Warnings (calls never answered, blank " +
    "lines, dropped frames) do not fail. Exit 1 when any file has an error, 2 when a file " +
    "cannot be read.",
  positionals: [
    { name: "file…", description: "JSONL recordings (several allowed)", required: true },
  ],
  flags: [
    {
      name: "json",
      type: "boolean",
      description: "One JSON line per file: {file, ok, style, records, errors, warnings, issues}",
    },
  ],
  examples: [
    "anna-app fixture verify fixtures/happy-path.jsonl",
    "anna-app fixture verify fixtures/*.jsonl --json",
    "anna-app fixture verify session.jsonl   # an executa dev --record transcript",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const json = args.flags.json === true;
    const { inputs, failed } = await readRecordings(args.positionals, io, NAME, json);
    let findings = false;
    for (const { file, recording } of inputs) {
      const errors = errorCount(recording.issues);
      if (errors > 0) findings = true;
      if (json) {
        io.stdout.write(
          JSON.stringify({
            file,
            ok: errors === 0,
            style: recording.style ?? null,
            records: recording.records,
            errors,
            warnings: recording.issues.length - errors,
            issues: recording.issues,
          }) + "\n",
        );
      } else {
        io.stdout.write(renderVerify(file, recording, io.style));
      }
    }
    return exitCode(failed, findings);
  },
};
