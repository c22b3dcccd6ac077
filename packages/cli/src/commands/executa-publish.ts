// `anna-app executa publish` (R172): mint or update the executa of this folder's executa.json,
// freeze its version, and make it app_bundled (or public with --publish). See
// publish/executa-publish.ts for the requests; this file is flags and output.
import type { CommandSpec, FlagDef, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG, accountFlag, selectAccount } from "../account/select-account.js";
import type { Bump } from "../publish/executa-project.js";
import type { PublishResult } from "../publish/executa-publish.js";
import { cwdOf, CWD_FLAG } from "../publish/cwd-flag.js";
import { BUMP_FLAG, DRY_RUN_FLAG, PROFILE_FLAG } from "../publish/publish-flags.js";
import { renderPlan } from "../publish/request-plan.js";
import type { CommandModule } from "./registry.js";

const NAME = "executa publish";

export const EXECUTA_PUBLISH_FLAGS: readonly FlagDef[] = [
  BUMP_FLAG,
  { name: "no-write", type: "boolean", description: "Leave executa.json and .anna/ untouched" },
  { name: "publish", type: "boolean", description: "Make it public after freezing" },
  DRY_RUN_FLAG,
  PROFILE_FLAG,
  CWD_FLAG,
  ACCOUNT_FLAG,
  { name: "json", type: "boolean", description: "One JSON line with the result (and the plan)" },
];

const spec: CommandSpec = {
  name: NAME,
  summary: "Publish the executa of this folder: mint its tool_id, freeze its version",
  description:
    "Reads executa.json (slug, name, version, executa_type, distribution). The first run mints " +
    "a tool_id and records it in .anna/executa.json; later runs update that executa. The " +
    "version is frozen as an immutable snapshot; publishing the same version again with the " +
    "same content changes nothing. A tool that declares distribution.binary_artifacts " +
    "uploads those archives before the freeze, so the version pins them. Exit 4 when " +
    "executa.json cannot be published as it is, 5 " +
    "when the server refuses (the message says why and what to run next).",
  flags: EXECUTA_PUBLISH_FLAGS,
  examples: [
    "anna-app executa publish",
    "anna-app executa publish --bump patch",
    "anna-app executa publish --publish --json",
    "anna-app executa publish --dry-run",
    "anna-app executa publish --bump minor --no-write --cwd executas/weather",
    "anna-app executa publish --profile local --account https://nexus.example.com",
  ],
};

export async function runExecutaPublish(
  args: ParsedArgs,
  io: CliIo,
  name: string,
): Promise<number> {
  if (args.positionals.length > 0)
    throw usageError(`unexpected argument '${args.positionals[0]}'`, name);
  const dir = cwdOf(args.flags, io);
  // Loaded here, not at the top: `--help` must not pay for the schema and hashing modules.
  const { loadExecutaProject } = await import("../publish/executa-project.js");
  const { publishExecuta } = await import("../publish/executa-publish.js");
  const { progressPrinter } = await import("./executa-upload-binaries.js");
  const project = await loadExecutaProject(dir, {
    bump: args.flags.bump as Bump | undefined,
    profile: args.flags.profile as string | undefined,
  });
  const { client, host } = await selectAccount(io.env, {
    command: name,
    account: accountFlag(args.flags),
  });
  const result = await publishExecuta({
    client,
    host,
    project,
    publishPublic: args.flags.publish === true,
    dryRun: args.flags["dry-run"] === true,
    noWrite: args.flags["no-write"] === true,
    ...(args.flags.json === true ? {} : { onProgress: progressPrinter(io) }),
  });
  io.stdout.write(args.flags.json === true ? JSON.stringify(result) + "\n" : render(result, io));
  return EXIT_OK;
}

function render(r: PublishResult, io: CliIo): string {
  const s = io.style;
  if (r.dry_run) {
    return (
      `dry run: ${r.slug} ${r.version} on ${r.host} — nothing was changed; this would send:\n` +
      renderPlan(r.plan) +
      "\n"
    );
  }
  const what = r.first_publish
    ? "published"
    : r.idempotent_hit
      ? "unchanged (this version was already frozen with this content)"
      : "updated";
  const binaries = (r.binaries?.platforms ?? [])
    .map(
      (b) =>
        `  binary      ${b.platform} ${b.status === "exists" ? "exists (skip)" : "uploaded"}\n`,
    )
    .join("");
  return (
    `${s.green("✓")} ${r.slug} ${r.version} ${what}\n` +
    binaries +
    `  tool_id     ${r.tool_id}\n` +
    `  visibility  ${r.visibility}${r.published_public ? "" : " (add --publish to list it publicly)"}\n` +
    `  host        ${r.host}\n`
  );
}

export const command: CommandModule = {
  spec,
  run: (args, io) => runExecutaPublish(args, io, NAME),
};
