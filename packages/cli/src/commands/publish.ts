// `anna-app publish` (R169): publishes what the current folder is, `manifest.json` → an app,
// `executa.json` → an executa; both or neither is exit 4, as in the published CLI.
import { existsSync } from "node:fs";
import path from "node:path";
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_INVALID_PROJECT, EXIT_USAGE, ExitError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { cwdOf } from "../publish/cwd-flag.js";
import { EXECUTA_PUBLISH_FLAGS, runExecutaPublish } from "./executa-publish.js";
import type { CommandModule } from "./registry.js";

const NAME = "publish";

const spec: CommandSpec = {
  name: NAME,
  summary: "Publish this folder: an app (manifest.json) or an executa (executa.json)",
  description:
    "For an executa this is `anna-app executa publish` with the same flags. --no-bundle and " +
    "--bundle-dir apply to apps.",
  flags: [
    ...EXECUTA_PUBLISH_FLAGS,
    { name: "no-bundle", type: "boolean", description: "Apps: publish without the UI bundle" },
    {
      name: "bundle-dir",
      type: "string",
      value: "<dir>",
      description: "Apps: the UI bundle folder",
    },
  ],
  examples: [
    "anna-app publish",
    "anna-app publish --bump patch --json",
    "anna-app publish --dry-run",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const dir = cwdOf(args.flags, io);
    const app = existsSync(path.join(dir, "manifest.json"));
    const executa = existsSync(path.join(dir, "executa.json"));
    if (app === executa) {
      throw new ExitError(
        EXIT_INVALID_PROJECT,
        app
          ? `${dir} has both manifest.json and executa.json; run 'anna-app apps publish' or 'anna-app executa publish'`
          : `${dir} has neither manifest.json (an app) nor executa.json (an executa); run this in a project folder`,
      );
    }
    if (app) {
      throw new ExitError(
        EXIT_USAGE,
        "publishing apps is not available in this version of anna-app yet; executas are (executa.json)",
      );
    }
    for (const f of ["no-bundle", "bundle-dir"]) {
      if (args.flags[f] !== undefined)
        throw new ExitError(EXIT_USAGE, `--${f} applies to apps; ${dir} is an executa`);
    }
    return runExecutaPublish(args, io, NAME);
  },
};
