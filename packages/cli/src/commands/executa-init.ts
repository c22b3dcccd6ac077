// `anna-app executa init <dir>`: scaffold a standalone Executa plugin from a template
// (Reference L11589, R166). Every template is a working plugin with one tool, `hello`, a test and
// an executa.json; `executa dev --dir <dir> --invoke hello` works on it straight away (ts after
// its build step, which init prints).
import path from "node:path";
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, EXIT_USAGE, ExitError, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { nextSteps } from "../executa-init/next-steps.js";
import { scaffoldExecuta, ScaffoldError } from "../executa-init/scaffold.js";
import {
  DEFAULT_TEMPLATE,
  EXECUTA_TEMPLATES,
  TEMPLATE_SUMMARIES,
  type ExecutaTemplate,
} from "../executa-init/templates.js";
import type { CommandModule } from "./registry.js";

const NAME = "executa init";

const spec: CommandSpec = {
  name: NAME,
  summary: "Scaffold a standalone Executa plugin (python, node, go or ts template)",
  description:
    "Creates <dir> with a long-running plugin offering one tool, `hello`, its test, executa.json " +
    "and a README, then prints the next commands. Templates: " +
    EXECUTA_TEMPLATES.map((t) => `${t} (${TEMPLATE_SUMMARIES[t]})`).join("; ") +
    ".",
  positionals: [{ name: "dir", description: "Folder to create the plugin in", required: true }],
  flags: [
    {
      name: "template",
      type: "string",
      value: "<name>",
      choices: EXECUTA_TEMPLATES,
      description: `Plugin language: ${EXECUTA_TEMPLATES.join("|")} (default: ${DEFAULT_TEMPLATE})`,
    },
    {
      name: "slug",
      type: "string",
      value: "<slug>",
      description: "kebab-case plugin name (default: the folder name)",
    },
    {
      name: "tool-id",
      type: "string",
      value: "<id>",
      description: "tool_id written to executa.json (default: tool-dev-<slug>)",
    },
    {
      name: "force",
      type: "boolean",
      description: "Write into a non-empty folder, overwriting files of the same name",
    },
    {
      name: "json",
      type: "boolean",
      description: "One JSON line on stdout: the created files and next steps",
    },
  ],
  examples: [
    "anna-app executa init my-tool",
    "anna-app executa init weather --template go --tool-id tool-acme-weather-1a2b3c4d",
    "anna-app executa init ./plugins/notes --template ts --slug notes",
    "anna-app executa init . --force --json",
  ],
};

async function run(args: ParsedArgs, io: CliIo): Promise<number> {
  const [target, extra] = args.positionals;
  if (target === undefined) throw usageError("missing <dir>: the folder to create", NAME);
  if (extra !== undefined) throw usageError(`unexpected argument '${extra}'`, NAME);
  const flags = args.flags;
  const template = (flags.template as ExecutaTemplate | undefined) ?? DEFAULT_TEMPLATE;
  const dir = path.resolve(io.cwd, target);

  let result;
  try {
    result = await scaffoldExecuta({
      dir,
      template,
      ...(typeof flags.slug === "string" ? { slug: flags.slug } : {}),
      ...(typeof flags["tool-id"] === "string" ? { toolId: flags["tool-id"] } : {}),
      force: flags.force === true,
    });
  } catch (error) {
    if (error instanceof ScaffoldError) {
      throw new ExitError(EXIT_USAGE, error.message, { cause: error });
    }
    throw error;
  }
  const steps = nextSteps(template, result.dir, io.cwd);

  if (flags.json === true) {
    const body = {
      dir: result.dir,
      template: result.template,
      slug: result.slug,
      tool_id: result.toolId,
      files: result.files,
      overwritten: result.overwritten,
      next_steps: steps,
    };
    io.stdout.write(JSON.stringify(body) + "\n");
    return EXIT_OK;
  }

  const { bold, dim, green } = io.style;
  const shown = path.relative(io.cwd, result.dir) || ".";
  const lines = [
    `${green("✓")} Created ${bold(result.slug)} (${template} template, tool_id ${bold(result.toolId)}) in ${shown}`,
    "",
    ...result.files.map((file) => {
      const note = result.overwritten.includes(file) ? dim(" (overwritten)") : "";
      return `  ${path.join(shown, file)}${note}`;
    }),
    "",
    bold("Next steps:"),
    ...steps.map((step) => `  ${step}`),
  ];
  io.stdout.write(lines.join("\n") + "\n");
  return EXIT_OK;
}

export const command: CommandModule = { spec, run };
