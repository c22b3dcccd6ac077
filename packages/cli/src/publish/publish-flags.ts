// Flags the publish commands share, so `executa publish`, `apps publish`, `apps push` and the
// top-level `publish` describe them the same way.
import type { FlagDef } from "../cli/args.js";

export const BUMP_FLAG: FlagDef = {
  name: "bump",
  type: "string",
  value: "<part>",
  choices: ["patch", "minor", "major"],
  description: "Raise the version first (patch, minor or major)",
};
export const DRY_RUN_FLAG: FlagDef = {
  name: "dry-run",
  type: "boolean",
  description: "Print the exact requests; change nothing",
};
export const PROFILE_FLAG: FlagDef = {
  name: "profile",
  type: "string",
  value: "<name>",
  description: "Use this distribution profile instead of the active one (this run only)",
};
export const JSON_FLAG: FlagDef = {
  name: "json",
  type: "boolean",
  description: "One JSON line with the result",
};
export const SLUG_FLAG: FlagDef = {
  name: "slug",
  type: "string",
  value: "<slug>",
  description: "The app (default: this folder's .anna/app.json, then its app.json slug)",
};

/** The app publish flags of `apps publish`, `apps push` and the top-level `publish`. */
export const APP_PUBLISH_FLAGS: readonly FlagDef[] = [
  {
    name: "no-write",
    type: "boolean",
    description: "Leave app.json, manifest.json and .anna/ untouched",
  },
  {
    name: "bundle-dir",
    type: "string",
    value: "<dir>",
    description: "The UI bundle folder (default: bundle)",
  },
  { name: "no-bundle", type: "boolean", description: "Send the manifest only, no UI bundle" },
  {
    name: "executa-id",
    type: "string",
    value: "<handle=id>",
    multiple: true,
    description: "Use this tool_id for a bundled executa instead of publishing it",
  },
  {
    name: "skip-executa-publish",
    type: "boolean",
    description: "Do not publish bundled executas; use the tool_ids they already have",
  },
  {
    name: "no-bundled-executas",
    type: "boolean",
    description: "Ignore app.json bundled_executas (only --executa-id resolves bundled: refs)",
  },
];
