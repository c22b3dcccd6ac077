// Flags → options and results → output for `apps publish`, `apps push` and the top-level
// `publish` of an app folder. The flows themselves are app-publish.ts and app-push.ts.
import type { ParsedArgs } from "../cli/args.js";
import { EXIT_OK, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { accountFlag, selectAccount } from "../account/select-account.js";
import type { AppPublishOptions, AppPublishResult } from "./app-publish.js";
import type { AppPushResult } from "./app-push.js";
import { cwdOf } from "./cwd-flag.js";
import type { Bump } from "./executa-project.js";
import { renderPlan } from "./request-plan.js";

export async function appPublishOptions(
  args: ParsedArgs,
  io: CliIo,
  name: string,
): Promise<AppPublishOptions> {
  if (args.positionals.length > 0) {
    throw usageError(`unexpected argument '${args.positionals[0]}'`, name);
  }
  const { parseOverrides } = await import("./bundled-executas.js");
  const f = args.flags;
  const { client, host } = await selectAccount(io.env, { command: name, account: accountFlag(f) });
  return {
    client,
    host,
    dir: cwdOf(f, io),
    bump: f.bump as Bump | undefined,
    dryRun: f["dry-run"] === true,
    noWrite: f["no-write"] === true,
    noBundle: f["no-bundle"] === true,
    bundleDir: typeof f["bundle-dir"] === "string" ? f["bundle-dir"] : undefined,
    overrides: parseOverrides((f["executa-id"] as string[] | undefined) ?? [], name),
    skipExecutaPublish: f["skip-executa-publish"] === true,
    noBundledExecutas: f["no-bundled-executas"] === true,
    profile: typeof f.profile === "string" ? f.profile : undefined,
    io,
    quiet: f.json === true,
  };
}

export async function runAppPublish(args: ParsedArgs, io: CliIo, name: string): Promise<number> {
  const options = await appPublishOptions(args, io, name);
  const { publishApp } = await import("./app-publish.js");
  const r = await publishApp(options);
  writeWarnings(io, r.warnings);
  io.stdout.write(args.flags.json === true ? JSON.stringify(r) + "\n" : renderPublish(r, io));
  return EXIT_OK;
}

export function writeWarnings(io: CliIo, warnings: readonly string[]): void {
  for (const w of warnings) io.stderr.write(`${io.errStyle.yellow("!")} ${w}\n`);
}

const dryRunText = (what: string, r: { host: string; plan: AppPublishResult["plan"] }) =>
  `dry run: ${what} on ${r.host} — nothing was changed; this would send:\n${renderPlan(r.plan)}\n`;

function executaLines(r: { executas: AppPublishResult["executas"] }): string[] {
  return r.executas.map((e) => `  executa     ${e.handle} → ${e.tool_id} (${e.source})`);
}

function renderPublish(r: AppPublishResult, io: CliIo): string {
  if (r.dry_run) return dryRunText(`${r.slug} ${r.version}`, r);
  const what = r.idempotent_hit
    ? "unchanged (this version already has this content)"
    : r.first_publish
      ? "created with its first version"
      : "created";
  const b = r.bundle;
  const bundle =
    b === null
      ? "none"
      : b.unchanged === true
        ? `${String(b.file_count)} files, already on the server`
        : `${String(b.file_count)} files (${String(b.uploaded)} uploaded), ${String(b.status ?? "sent")}`;
  return (
    [
      `${io.style.green("✓")} ${r.slug} ${r.version} ${what}`,
      `  app         ${r.slug} (id ${r.app_id}, status ${r.status})`,
      `  version id  ${r.version_id}`,
      ...executaLines(r),
      `  bundle      ${bundle}`,
      `  next        anna-app apps submit-review ${r.slug}; once approved: anna-app apps release ${r.version}`,
    ].join("\n") + "\n"
  );
}

export function renderPush(r: AppPushResult, io: CliIo): string {
  if (r.dry_run) return dryRunText(`the working draft of ${r.slug}`, r);
  const what = r.unchanged ? "working draft unchanged" : "working draft updated";
  return (
    [
      `${io.style.green("✓")} ${r.slug}: ${what} (revision ${r.revision})`,
      `  app         ${r.slug} (id ${r.app_id}, status ${r.status})`,
      ...executaLines(r),
      `  bundle      ${r.bundle_status ?? "none"}${r.bundle_uploaded ? " (uploaded)" : ""}`,
      `  next        anna-app apps cut ${r.version}`,
    ].join("\n") + "\n"
  );
}
