// `anna-app publish` (R169): publishes what the current folder is, `manifest.json` → an app,
// `executa.json` → an executa; both or neither is exit 4, as in the published CLI.
import { existsSync } from "node:fs";
import path from "node:path";
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_INVALID_PROJECT, ExitError, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { cwdOf } from "../publish/cwd-flag.js";
import { runAppPublish } from "../publish/app-command.js";
import { APP_PUBLISH_FLAGS } from "../publish/publish-flags.js";
import { EXECUTA_PUBLISH_FLAGS, runExecutaPublish } from "./executa-publish.js";
import type { CommandModule } from "./registry.js";

const NAME = "publish";

const spec: CommandSpec = {
  name: NAME,
  summary: "Publish this folder: an app (manifest.json) or an executa (executa.json)",
  description:
    "For an app this is `anna-app apps publish`, for an executa `anna-app executa publish`, " +
    "with the same flags. --publish is for executas only; --bundle-dir, --no-bundle, " +
    "--executa-id, --skip-executa-publish and --no-bundled-executas for apps only.",
  flags: [...EXECUTA_PUBLISH_FLAGS, ...APP_PUBLISH_FLAGS.filter((f) => f.name !== "no-write")],
  examples: [
    "anna-app publish",
    "anna-app publish --bump patch --json",
    "anna-app publish --dry-run --cwd executas/weather",
    "anna-app publish --publish --no-write --profile local --account https://nexus.example.com",
    "anna-app publish --no-bundle --cwd apps/focus-flow",
    "anna-app publish --bundle-dir dist --skip-executa-publish",
    "anna-app publish --executa-id focus-session=tool-acme-focus-session-x1y2z3 --no-bundled-executas",
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
    const only = (names: readonly string[], what: string) => {
      const given = names.find((n) => args.flags[n] !== undefined);
      if (given !== undefined) {
        throw usageError(
          `--${given} is for ${what}; ${dir} is ${app ? "an app" : "an executa"}`,
          NAME,
        );
      }
    };
    if (app) {
      only(["publish"], "executas (executa.json)");
      return runAppPublish(args, io, NAME);
    }
    only(
      APP_PUBLISH_FLAGS.map((f) => f.name).filter((n) => n !== "no-write"),
      "apps (manifest.json)",
    );
    return runExecutaPublish(args, io, NAME);
  },
};
