// The command table. Modules load lazily so `anna-app --help` stays fast.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import type { CliIo } from "../cli/io.js";

export interface CommandModule {
  spec: CommandSpec;
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

export interface CommandEntry {
  /** Words of the command, e.g. ["executa", "dev"]. */
  path: readonly string[];
  summary: string;
  load(): Promise<CommandModule>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    path: ["executa", "dev"],
    summary: "Run one Tool plugin in isolation: REPL or one-shot describe/health/invoke",
    load: async () => (await import("./executa-dev.js")).command,
  },
  {
    path: ["executa", "test"],
    summary: "Run the protocol conformance suite against a Tool plugin in any language",
    load: async () => (await import("./executa-test.js")).command,
  },
  {
    path: ["executa", "mcp"],
    summary: "Serve an Executa as an MCP server (stdio, or Streamable HTTP on 127.0.0.1)",
    load: async () => (await import("./executa-mcp.js")).command,
  },
  {
    path: ["executa", "init"],
    summary: "Scaffold a standalone Executa plugin (python, node, go or ts template)",
    load: async () => (await import("./executa-init.js")).command,
  },
  {
    path: ["init"],
    summary: "Scaffold an Anna App: manifest, app.json, UI bundle and a bundled executa",
    load: async () => (await import("./init.js")).command,
  },
  {
    path: ["dev"],
    summary: "Run the app in a local harness: dashboard, sandboxed windows, executas, dev panel",
    load: async () => (await import("./dev.js")).command,
  },
  {
    path: ["doctor"],
    summary: "Check Node, Python, uv, Go and the dev key; say what each missing piece disables",
    load: async () => (await import("./doctor.js")).command,
  },
  {
    path: ["validate"],
    summary: "Check an app project: manifest schema, UI, tool ids, and (--strict) bundle grants",
    load: async () => (await import("./validate.js")).command,
  },
  {
    path: ["fixture", "verify"],
    summary: "Check recordings: each line parses, calls pair with answers, t never goes backwards",
    load: async () => (await import("./fixture-verify.js")).command,
  },
  {
    path: ["fixture", "summarize"],
    summary: "Digest a recording: calls per namespace and method, errors, durations, top tools",
    load: async () => (await import("./fixture-summarize.js")).command,
  },
  {
    path: ["fixture", "replay"],
    summary: "Dry-run a recording against a manifest: which calls would now be denied",
    load: async () => (await import("./fixture-replay.js")).command,
  },
  {
    path: ["login"],
    summary: "Log in to a Nexus with the device flow and save a developer token (PAT)",
    load: async () => (await import("./login.js")).command,
  },
  {
    path: ["logout"],
    summary: "Forget a saved account (the current one, --host <url>, or --all) and revoke its PAT",
    load: async () => (await import("./logout.js")).command,
  },
  {
    path: ["whoami"],
    summary: "Show the current saved account (and any others) without contacting the server",
    load: async () => (await import("./whoami.js")).command,
  },
  {
    path: ["account", "set-handle"],
    summary: "Set or rename your developer @handle, the namespace your apps publish under",
    load: async () => (await import("./account-set-handle.js")).command,
  },
  {
    path: ["token", "list"],
    summary: "List your developer tokens (PATs), most recent first",
    load: async () => (await import("./token-list.js")).command,
  },
  {
    path: ["token", "revoke"],
    summary: "Revoke one of your developer tokens by its id (see anna-app token list)",
    load: async () => (await import("./token-revoke.js")).command,
  },
  {
    path: ["token", "scopes"],
    summary: "List the scopes a developer token can carry on the server",
    load: async () => (await import("./token-scopes.js")).command,
  },
  {
    path: ["publish"],
    summary: "Publish this folder: an app (manifest.json) or an executa (executa.json)",
    load: async () => (await import("./publish.js")).command,
  },
  {
    path: ["apps", "push"],
    summary: "Upload this folder as the app's working draft (mutable, no version frozen)",
    load: async () => (await import("./apps-push.js")).command,
  },
  {
    path: ["apps", "cut"],
    summary: "Freeze the app's working draft into an immutable version",
    load: async () => (await import("./apps-cut.js")).command,
  },
  {
    path: ["apps", "release"],
    summary: "Make an existing app version live (the app must be approved)",
    load: async () => (await import("./apps-release.js")).command,
  },
  {
    path: ["apps", "publish"],
    summary: "Create an immutable app version from this folder (bundled executas frozen first)",
    load: async () => (await import("./apps-publish.js")).command,
  },
  {
    path: ["apps", "discard"],
    summary: "Drop the app's working draft (versions already cut are kept)",
    load: async () => (await import("./apps-discard.js")).command,
  },
  {
    path: ["apps", "submit-review"],
    summary: "Submit the app for review (DRAFT or REJECTED → PENDING_REVIEW)",
    load: async () => (await import("./apps-submit-review.js")).command,
  },
  {
    path: ["apps", "list"],
    summary: "List the apps you author and their status",
    load: async () => (await import("./apps-list.js")).command,
  },
  {
    path: ["apps", "status"],
    summary: "Show one app's server state: status, latest version, working draft",
    load: async () => (await import("./apps-status.js")).command,
  },
  {
    path: ["apps", "versions"],
    summary: "List every version of one app on the server",
    load: async () => (await import("./apps-versions.js")).command,
  },
  {
    path: ["apps", "grants"],
    summary: "Show the scopes and quotas granted to one app",
    load: async () => (await import("./apps-grants.js")).command,
  },
  {
    path: ["apps", "sync-meta"],
    summary: "Update the app's store listing from app.json and manifest.json",
    load: async () => (await import("./apps-sync-meta.js")).command,
  },
  {
    path: ["apps", "rename-slug"],
    summary: "Rename the app's slug (only before its first publish, without installs)",
    load: async () => (await import("./apps-rename-slug.js")).command,
  },
  {
    path: ["apps", "unpublish"],
    summary: "Take a published app off the store (PUBLISHED → APPROVED; installs keep working)",
    load: async () => (await import("./apps-state.js")).unpublish,
  },
  {
    path: ["apps", "archive"],
    summary: "Archive an app: hidden from the store and new installs; installs keep working",
    load: async () => (await import("./apps-state.js")).archive,
  },
  {
    path: ["apps", "unarchive"],
    summary: "Bring an archived app back (ARCHIVED → APPROVED)",
    load: async () => (await import("./apps-state.js")).unarchive,
  },
  {
    path: ["apps", "delete"],
    summary: "Delete an app for good (refused while users have it installed)",
    load: async () => (await import("./apps-state.js")).del,
  },
  {
    path: ["executa", "publish"],
    summary: "Publish the executa of this folder: mint its tool_id, freeze its version",
    load: async () => (await import("./executa-publish.js")).command,
  },
  {
    path: ["executa", "list"],
    summary: "List the executas (tools and skills) you own on the server",
    load: async () => (await import("./executa-list.js")).command,
  },
  {
    path: ["executa", "install"],
    summary: "Install an executa: a published one from the Hub, or a local folder or archive",
    load: async () => (await import("./executa-install.js")).command,
  },
  {
    path: ["executa", "status"],
    summary: "Show one executa's state on the server: visibility, latest version",
    load: async () => (await import("./executa-status.js")).command,
  },
  {
    path: ["executa", "versions"],
    summary: "List an executa's frozen versions, newest first",
    load: async () => (await import("./executa-versions.js")).command,
  },
  {
    path: ["executa", "unpublish"],
    summary: "Make an executa private again (hidden from the Hub and from new app installs)",
    load: async () => (await import("./executa-unpublish.js")).command,
  },
  {
    path: ["executa", "yank"],
    summary: "Delete one frozen version of an executa (<slug>@<version>)",
    load: async () => (await import("./executa-yank.js")).command,
  },
  {
    path: ["executa", "delete"],
    summary: "Delete an executa (archived instead when a published app uses it)",
    load: async () => (await import("./executa-delete.js")).command,
  },
  {
    path: ["executa", "cache-clear"],
    summary: "Forget which server-side executa this folder publishes to (.anna/executa.json)",
    load: async () => (await import("./executa-cache-clear.js")).command,
  },
  {
    path: ["executa", "upload-binaries"],
    summary: "Upload the executa's binary_artifacts to the server (resumable, content-addressed)",
    load: async () => (await import("./executa-upload-binaries.js")).command,
  },
  {
    path: ["executa", "trusted-publisher", "add"],
    summary: "Let a GitHub Actions workflow upload this tool's binaries without a PAT (OIDC)",
    load: async () => (await import("./executa-trusted-publisher.js")).addCommand,
  },
  {
    path: ["executa", "trusted-publisher", "list"],
    summary: "List the workflows that may upload this tool's binaries, and when each last did",
    load: async () => (await import("./executa-trusted-publisher.js")).listCommand,
  },
  {
    path: ["executa", "trusted-publisher", "remove"],
    summary: "Remove a trusted publisher by its id (see trusted-publisher list)",
    load: async () => (await import("./executa-trusted-publisher.js")).removeCommand,
  },
  {
    path: ["executa", "register"],
    summary: "Register a dev app for a tool_id so executa dev can use real server services",
    load: async () => (await import("./executa-register.js")).command,
  },
];

/** The longest command path that prefixes argv, and the rest of argv. */
export function findCommand(
  argv: readonly string[],
): { entry: CommandEntry; rest: string[] } | undefined {
  let found: { entry: CommandEntry; rest: string[] } | undefined;
  for (const entry of COMMANDS) {
    const n = entry.path.length;
    if (entry.path.every((w, i) => argv[i] === w)) {
      if (!found || n > found.entry.path.length) found = { entry, rest: argv.slice(n) };
    }
  }
  return found;
}
