// `anna-app executa init <dir>`: scaffold a standalone Executa plugin from a template
// (Reference L11589, R166). Every template is a working plugin with one tool, `hello`, a test and
// an executa.json; `executa dev --dir <dir> --invoke hello` works on it straight away (ts after
// its build step, which init prints).
import path from "node:path";
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { nextSteps } from "../executa-init/next-steps.js";
import { scaffoldExecuta, ScaffoldError } from "../executa-init/scaffold.js";
import {
  DEFAULT_TEMPLATE,
  EXECUTA_TEMPLATES,
  TEMPLATE_SUMMARIES,
  type ExecutaTemplate,
} from "../executa-init/templates.js";
import {
  exitOnRefusal,
  FORCE_FLAG,
  JSON_FLAG,
  renderCreated,
  targetArgument,
} from "../scaffold/command-output.js";
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
    FORCE_FLAG,
    JSON_FLAG,
  ],
  examples: [
    "anna-app executa init my-tool",
    "anna-app executa init weather --template go --tool-id tool-acme-weather-1a2b3c4d",
    "anna-app executa init ./plugins/notes --template ts --slug notes",
    "anna-app executa init . --force --json",
  ],
};

async function run(args: ParsedArgs, io: CliIo): Promise<number> {
  const target = targetArgument(args, NAME);
  const flags = args.flags;
  const template = (flags.template as ExecutaTemplate | undefined) ?? DEFAULT_TEMPLATE;
  const dir = path.resolve(io.cwd, target);

  const result = await exitOnRefusal(
    scaffoldExecuta({
      dir,
      template,
      ...(typeof flags.slug === "string" ? { slug: flags.slug } : {}),
      ...(typeof flags["tool-id"] === "string" ? { toolId: flags["tool-id"] } : {}),
      force: flags.force === true,
    }),
    ScaffoldError,
  );
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

  const { bold, green } = io.style;
  io.stdout.write(
    renderCreated(io.style, {
      dir: result.dir,
      cwd: io.cwd,
      headline: (shown) =>
        `${green("✓")} Created ${bold(result.slug)} (${template} template, tool_id ${bold(result.toolId)}) in ${shown}`,
      files: result.files,
      overwritten: result.overwritten,
      steps,
    }),
  );
  return EXIT_OK;
}

export const command: CommandModule = { spec, run };
