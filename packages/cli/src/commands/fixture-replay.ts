// `anna-app fixture replay <file…> [--manifest manifest.json]` (D49, R164): the dry run. Each
// recorded call's projected outcome under the manifest's ACL; exit 1 when any would be denied.
import path from "node:path";
import { errorCount } from "@anna-ai/app-schema";
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import type { CliIo } from "../cli/io.js";
import { exitCode, readRecordings } from "../fixture/each-recording.js";
import { loadManifest } from "../fixture/load-manifest.js";
import { renderIssue, renderReplay } from "../fixture/render.js";
import { replayRecording } from "../fixture/replay.js";
import { readBundledToolIds } from "../test-kit/bundled-tool-ids.js";
import type { CommandModule } from "./registry.js";

const NAME = "fixture replay";
const DEFAULT_MANIFEST = "manifest.json";

const spec: CommandSpec = {
  name: NAME,
  summary: "Dry-run a recording against a manifest: which calls would now be denied",
  description:
    "Walks every recorded call through the manifest's runtime gate — ui.host_api with its " +
    "read/write/* aliases (window.hello/ready/report_error always pass), then for tools.invoke " +
    "and invokeAsync the tool_id against the declared executas and ui.host_api.tools " +
    "(bundled:<handle> refs resolve through app.json and executas/*/executa.json beside the " +
    "manifest, as anna-app dev resolves them) — and " +
    "prints allowed/denied with the reason. Nothing is booted or called. Exit 1 when any call " +
    "would be denied or a line of the recording cannot be read; 2 when the recording or the " +
    "manifest cannot be read, the manifest is invalid, or the file is an executa transcript.",
  positionals: [
    { name: "file…", description: "JSONL app recordings (several allowed)", required: true },
  ],
  flags: [
    {
      name: "manifest",
      type: "string",
      value: "<path>",
      description: `The app manifest to project against (default: ./${DEFAULT_MANIFEST})`,
    },
    {
      name: "json",
      type: "boolean",
      description: "One JSON line per file: {file, manifest, calls:[…], allowed, denied, changed}",
    },
  ],
  examples: [
    "anna-app fixture replay fixtures/happy-path.jsonl",
    "anna-app fixture replay fixtures/happy-path.jsonl --manifest manifest.json",
    "anna-app fixture replay fixtures/*.jsonl --manifest ../next/manifest.json --json",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const json = args.flags.json === true;
    const shown = typeof args.flags.manifest === "string" ? args.flags.manifest : DEFAULT_MANIFEST;
    const manifestFile = path.resolve(io.cwd, shown);
    const manifest = await loadManifest(manifestFile, shown);
    // `bundled:<handle>` refs resolve as `anna-app dev` resolves them, from the manifest's folder.
    const toolIds = readBundledToolIds(path.dirname(manifestFile));
    const { inputs, failed } = await readRecordings(args.positionals, io, NAME, json);
    let unreadable = failed;
    let findings = false;
    for (const { file, recording } of inputs) {
      if (recording.style === "frame") {
        unreadable = true;
        const message = `${file}: an executa dev transcript has no Host API calls to replay (use fixture summarize)`;
        if (json) io.stdout.write(JSON.stringify({ file, ok: false, error: message }) + "\n");
        else io.stderr.write(`${io.errStyle.red("error:")} ${message}\n`);
        continue;
      }
      const report = replayRecording(file, shown, manifest, recording, toolIds);
      const errors = recording.issues.filter((issue) => issue.severity === "error");
      if (report.denied > 0 || errors.length > 0) findings = true;
      if (json) {
        io.stdout.write(
          JSON.stringify({
            ...report,
            ok: report.denied === 0 && errors.length === 0,
            issues: errors,
          }) + "\n",
        );
        continue;
      }
      for (const issue of errors) io.stderr.write(renderIssue(file, issue, io.errStyle) + "\n");
      if (errors.length > 0) {
        io.stderr.write(
          `${file}: ${errorCount(errors)} unreadable lines were not replayed (see fixture verify)\n`,
        );
      }
      io.stdout.write(renderReplay(report, io.style));
    }
    return exitCode(unreadable, findings);
  },
};
