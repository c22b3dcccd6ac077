// `anna-app apps publish` (R169): one immutable version from this folder, bundled executas
// published and frozen first. See publish/app-publish.ts for the requests.
import type { CommandSpec } from "../cli/args.js";
import { ACCOUNT_FLAG } from "../account/select-account.js";
import { runAppPublish } from "../publish/app-command.js";
import { CWD_FLAG } from "../publish/cwd-flag.js";
import {
  APP_PUBLISH_FLAGS,
  BUMP_FLAG,
  DRY_RUN_FLAG,
  JSON_FLAG,
  PROFILE_FLAG,
} from "../publish/publish-flags.js";
import type { CommandModule } from "./registry.js";

const NAME = "apps publish";

const spec: CommandSpec = {
  name: NAME,
  summary: "Create an immutable app version from this folder (bundled executas frozen first)",
  description:
    "Reads manifest.json (the payload) and app.json (slug, name, version, bundled_executas, " +
    "listing). Each bundled executa is published and its version frozen, the manifest's " +
    "bundled: refs are replaced by the minted tool_ids, then the version and its UI bundle are " +
    "uploaded. Publishing the same content again changes nothing. The version does not go " +
    "live: submit the app for review, then `anna-app apps release <version>`. Exit 4 when the " +
    "project is invalid (nothing is sent), 5 when the server refuses.",
  flags: [
    BUMP_FLAG,
    ...APP_PUBLISH_FLAGS,
    DRY_RUN_FLAG,
    PROFILE_FLAG,
    CWD_FLAG,
    ACCOUNT_FLAG,
    JSON_FLAG,
  ],
  examples: [
    "anna-app apps publish",
    "anna-app apps publish --bump patch",
    "anna-app apps publish --dry-run --json",
    "anna-app apps publish --no-bundle --no-write --cwd apps/focus-flow",
    "anna-app apps publish --bundle-dir dist --profile local",
    "anna-app apps publish --executa-id focus-session=tool-acme-focus-session-x1y2z3 --no-bundled-executas",
    "anna-app apps publish --skip-executa-publish --account https://nexus.example.com",
  ],
};

export const command: CommandModule = { spec, run: (args, io) => runAppPublish(args, io, NAME) };
