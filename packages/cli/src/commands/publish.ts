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
    "For an executa this is `anna-app executa publish` with the same flags. Publishing apps " +
    "(and their --no-bundle and --bundle-dir) is not in this version yet.",
  flags: EXECUTA_PUBLISH_FLAGS,
  examples: [
    "anna-app publish",
    "anna-app publish --bump patch --json",
    "anna-app publish --dry-run --cwd executas/weather",
    "anna-app publish --publish --no-write --profile local --account https://nexus.example.com",
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
    return runExecutaPublish(args, io, NAME);
  },
};
