// `anna-app validate`: schema + UI + cross-file checks on an app project, and with --strict the
// bundle's Host API calls against `ui.host_api` (L4660–L4669, Reference L11563, R164).
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, EXIT_RUNTIME, EXIT_USAGE, ExitError, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { loadValidate } from "../validate/load-validate.js";
import type { CommandModule } from "./registry.js";

const NAME = "validate";

const spec: CommandSpec = {
  name: NAME,
  summary: "Check an app project the way the platform will: manifest, UI, tool ids, bundle",
  description:
    "Runs the layers in order, each only when the previous ones found no error: (1) JSON Schema " +
    "of manifest.json, app.json and executa.json; (2) UI static checks (views, CSP, bundle entry, " +
    "view entries and icons present); (3) cross-file tool_id linter (host_api.tools and executa " +
    "refs, bundled:<handle> through app.json, executas discovered as `anna-app dev` does, SKILL.md " +
    "folders); (4) with --strict, a grep of the bundle for Host API calls ui.host_api does not " +
    "grant. Every finding names the file, line:column and JSON pointer. Exit codes: 0 no errors " +
    "(warnings allowed), 1 errors found, 2 usage error or no manifest.",
  flags: [
    {
      name: "manifest",
      type: "string",
      value: "<path>",
      description: "The manifest (default: <dir>/manifest.json)",
    },
    {
      name: "bundle",
      type: "string",
      value: "<dir>",
      description: "The built bundle folder (default: <dir>/bundle)",
    },
    {
      name: "strict",
      type: "boolean",
      description: "Also grep the bundle for anna.<ns>.<method> calls not granted in ui.host_api",
    },
    {
      name: "fix",
      type: "boolean",
      description:
        "Apply safe fixes (missing host_api grants, one-candidate ref typos) and list them",
    },
    { name: "json", type: "boolean", description: "Print one JSON report on stdout (for CI)" },
  ],
  positionals: [
    { name: "dir", description: "The app project folder (default: the current directory)" },
  ],
  examples: [
    "anna-app validate",
    "anna-app validate --strict",
    "anna-app validate ./my-app --bundle ./my-app/dist --strict --json",
    "anna-app validate --manifest apps/focus/manifest.json --fix",
  ],
};

async function run(args: ParsedArgs, io: CliIo): Promise<number> {
  if (args.positionals.length > 1) {
    throw usageError(`expected at most one project folder, got ${args.positionals.length}`, NAME);
  }
  const json = args.flags.json === true;
  const dir = args.positionals[0];
  const manifest = args.flags.manifest as string | undefined;
  const bundle = args.flags.bundle as string | undefined;
  const { formatReport, reportJson, ValidateConfigError, validateProject } = await loadValidate(
    io.env,
  );
  let report;
  try {
    report = await validateProject({
      cwd: io.cwd,
      ...(dir === undefined ? {} : { dir }),
      ...(manifest === undefined ? {} : { manifest }),
      ...(bundle === undefined ? {} : { bundle }),
      strict: args.flags.strict === true,
      fix: args.flags.fix === true,
    });
  } catch (error) {
    if (!(error instanceof ValidateConfigError)) throw error;
    if (json) {
      throw new ExitError(EXIT_USAGE, error.message, {
        cause: error,
        output: JSON.stringify({ ok: false, error: { code: "config", message: error.message } }),
      });
    }
    throw usageError(error.message, NAME);
  }
  io.stdout.write(json ? reportJson(report) + "\n" : formatReport(report, io.style));
  return report.ok ? EXIT_OK : EXIT_RUNTIME;
}

export const command: CommandModule = { spec, run };
