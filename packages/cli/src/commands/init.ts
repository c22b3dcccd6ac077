// `anna-app init <dir>`: scaffold an Anna App project (R164, quickstart L4615–L4640): a schema-2
// manifest, app.json, a bundle that connects and calls tools.invoke/storage, and a bundled
// executa under executas/<handle>/. Every template passes `anna-app validate --strict` and its
// own tests as generated (the ts executa after the build step init prints).
import path from "node:path";
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import {
  APP_TEMPLATE_SPECS,
  APP_TEMPLATES,
  DEFAULT_APP_TEMPLATE,
  type AppTemplate,
} from "../init/app-templates.js";
import { appNextSteps } from "../init/next-steps.js";
import { InitError, scaffoldApp } from "../init/scaffold-app.js";
import {
  exitOnRefusal,
  FORCE_FLAG,
  JSON_FLAG,
  renderCreated,
  targetArgument,
} from "../scaffold/command-output.js";
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
    FORCE_FLAG,
    JSON_FLAG,
  ],
  examples: [
    "anna-app init my-focus-flow --slug focus-flow",
    "anna-app init notes-app --template ts",
    "anna-app init greeter --template skill --json",
    "anna-app init . --slug my-app --force",
  ],
};

async function run(args: ParsedArgs, io: CliIo): Promise<number> {
  const target = targetArgument(args, NAME);
  const flags = args.flags;
  const template = (flags.template as AppTemplate | undefined) ?? DEFAULT_APP_TEMPLATE;

  const result = await exitOnRefusal(
    scaffoldApp({
      dir: path.resolve(io.cwd, target),
      template,
      ...(typeof flags.slug === "string" ? { slug: flags.slug } : {}),
      force: flags.force === true,
    }),
    InitError,
  );
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

  const { bold, green } = io.style;
  const skill = result.skill === undefined ? "" : `, skill ${bold(result.skill)}`;
  io.stdout.write(
    renderCreated(io.style, {
      dir: result.dir,
      cwd: io.cwd,
      headline: (shown) =>
        `${green("✓")} Created app ${bold(result.slug)} (${template} template) in ${shown}: ` +
        `executa ${bold(result.executaDir)} (tool_id ${bold(result.toolId)})${skill}`,
      files: result.files,
      overwritten: result.overwritten,
      steps,
    }),
  );
  return EXIT_OK;
}

export const command: CommandModule = { spec, run };
