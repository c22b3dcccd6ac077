// `anna-app apps push` (R169): upsert the app's one working draft from this folder. See
// publish/app-push.ts for the requests.
import type { CommandSpec } from "../cli/args.js";
import { EXIT_OK, usageError } from "../cli/exit-error.js";
import { ACCOUNT_FLAG } from "../account/select-account.js";
import { appPublishOptions, renderPush, writeWarnings } from "../publish/app-command.js";
import { CWD_FLAG } from "../publish/cwd-flag.js";
import {
  APP_PUBLISH_FLAGS,
  BUMP_FLAG,
  DRY_RUN_FLAG,
  JSON_FLAG,
  PROFILE_FLAG,
} from "../publish/publish-flags.js";
import type { CommandModule } from "./registry.js";

const NAME = "apps push";

const spec: CommandSpec = {
  name: NAME,
  summary: "Upload this folder as the app's working draft (mutable, no version frozen)",
  description:
    "Safe on every commit: the draft is replaced, bundled executas are published without " +
    "freezing a version, and the same content is answered as unchanged. --if-match <revision> " +
    "refuses the push when someone else pushed since that revision (exit 4). Freeze the draft " +
    "into a version with `anna-app apps cut <version>`.",
  flags: [
    BUMP_FLAG,
    ...APP_PUBLISH_FLAGS,
    {
      name: "no-install-local",
      type: "boolean",
      description: "Accepted for compatibility; this version installs no local executa shims",
    },
    {
      name: "if-match",
      type: "string",
      value: "<revision>",
      description: "Push only if the draft is still at this revision",
    },
    DRY_RUN_FLAG,
    PROFILE_FLAG,
    CWD_FLAG,
    ACCOUNT_FLAG,
    JSON_FLAG,
  ],
  examples: [
    "anna-app apps push",
    "anna-app apps push --dry-run",
    "anna-app apps push --if-match 3 --json",
    "anna-app apps push --bump minor --no-write --cwd apps/focus-flow",
    "anna-app apps push --no-bundle --profile local --no-install-local",
    "anna-app apps push --bundle-dir dist --skip-executa-publish",
    "anna-app apps push --executa-id focus-session=tool-acme-focus-session-x1y2z3 --no-bundled-executas --account https://nexus.example.com",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args, io) => {
    const raw = args.flags["if-match"];
    let ifMatch: number | undefined;
    if (typeof raw === "string") {
      ifMatch = Number(raw);
      if (!/^\d+$/.test(raw))
        throw usageError(
          `--if-match ${raw}: give the draft's revision number (see anna-app apps status)`,
          NAME,
        );
    }
    const options = await appPublishOptions(args, io, NAME);
    const { pushApp } = await import("../publish/app-push.js");
    const r = await pushApp({ ...options, ifMatch });
    writeWarnings(io, r.warnings);
    io.stdout.write(args.flags.json === true ? JSON.stringify(r) + "\n" : renderPush(r, io));
    return EXIT_OK;
  },
};
