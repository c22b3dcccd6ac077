// `anna-app init <dir>`: scaffold an Anna App project (R164, quickstart L4615–L4640): a schema-2
// manifest, app.json, a bundle that connects and calls tools.invoke/storage, and a bundled
// executa under executas/<handle>/. Every template passes `anna-app validate --strict` and its
// own tests as generated (the ts executa after the build step init prints).
import path from "node:path";
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, EXIT_USAGE, ExitError, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import {
  APP_TEMPLATE_SPECS,
  APP_TEMPLATES,
  DEFAULT_APP_TEMPLATE,
  type AppTemplate,
} from "../init/app-templates.js";
import { appNextSteps } from "../init/next-steps.js";
import { InitError, scaffoldApp } from "../init/scaffold-app.js";
import type { CommandModule } from "./registry.js";

const NAME = "init";

const spec: CommandSpec = {
  name: NAME,
  summary: "Scaffold an Anna App: manifest, app.json, UI bundle and a bundled executa",
  description:
    "Creates <dir> with a schema-2 manifest.json, app.json, a bundle/ that connects to the host " +
    "and calls tools.invoke and storage, its vitest test, and an executa under " +
    "executas/<handle>/ with its own tests; then prints the next commands. Templates: " +
    APP_TEMPLATES.map((t) => `${t} (${APP_TEMPLATE_SPECS[t].summary})`).join("; ") +
    ".",
  positionals: [{ name: "dir", description: "Folder to create the app in", required: true }],
  flags: [
    {
      name: "slug",
      type: "string",
      value: "<slug>",
      description: "App slug for app.json, 3–80 of a-z 0-9 - (default: the folder name)",
    },
    {
      name: "template",
      type: "string",
      value: "<name>",
      choices: APP_TEMPLATES,
      description: `Project template: ${APP_TEMPLATES.join("|")} (default: ${DEFAULT_APP_TEMPLATE})`,
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
    "anna-app init my-focus-flow --slug focus-flow",
    "anna-app init notes-app --template ts",
    "anna-app init greeter --template skill --json",
    "anna-app init . --slug my-app --force",
  ],
};

async function run(args: ParsedArgs, io: CliIo): Promise<number> {
  const [target, extra] = args.positionals;
  if (target === undefined) throw usageError("missing <dir>: the folder to create", NAME);
  if (extra !== undefined) throw usageError(`unexpected argument '${extra}'`, NAME);
  const flags = args.flags;
  const template = (flags.template as AppTemplate | undefined) ?? DEFAULT_APP_TEMPLATE;

  let result;
  try {
    result = await scaffoldApp({
      dir: path.resolve(io.cwd, target),
      template,
      ...(typeof flags.slug === "string" ? { slug: flags.slug } : {}),
      force: flags.force === true,
    });
  } catch (error) {
    if (error instanceof InitError)
      throw new ExitError(EXIT_USAGE, error.message, { cause: error });
    throw error;
  }
  const steps = appNextSteps({
    dir: result.dir,
    cwd: io.cwd,
    handle: result.handle,
    executaTemplate: result.executaTemplate,
  });

  if (flags.json === true) {
    const body = {
      dir: result.dir,
      template: result.template,
      slug: result.slug,
      handle: result.handle,
      tool_id: result.toolId,
      executa_dir: result.executaDir,
      executa_template: result.executaTemplate,
      skill: result.skill ?? null,
      files: result.files,
      overwritten: result.overwritten,
      next_steps: steps,
    };
    io.stdout.write(JSON.stringify(body) + "\n");
    return EXIT_OK;
  }

  const { bold, dim, green } = io.style;
  const shown = path.relative(io.cwd, result.dir) || ".";
  const skill = result.skill === undefined ? "" : `, skill ${bold(result.skill)}`;
  const lines = [
    `${green("✓")} Created app ${bold(result.slug)} (${template} template) in ${shown}: ` +
      `executa ${bold(result.executaDir)} (tool_id ${bold(result.toolId)})${skill}`,
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
