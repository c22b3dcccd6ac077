// `anna-app executa upload-binaries` (real-world-cli.md §A, §B): hash the local
// `binary_artifacts`, then B1 (or B2 with --oidc) → B3 → B4 × N → B5. See
// publish/binary-upload.ts for the requests; this file is flags, account and output.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, EXIT_INVALID_PROJECT, ExitError, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { canonicalHost } from "../account/canonical-host.js";
import { ACCOUNT_FLAG, accountFlag, selectAccount } from "../account/select-account.js";
import type { UploadProgress, UploadResult } from "../publish/binary-upload.js";
import { DIR_FLAG, dirOf, TOOL_ID_FLAG } from "../publish/dir-flag.js";
import type { CommandModule } from "./registry.js";

const NAME = "executa upload-binaries";

const spec: CommandSpec = {
  name: NAME,
  summary: "Upload the executa's binary_artifacts to the server (resumable, content-addressed)",
  description:
    "Reads distribution.binary_artifacts from executa.json, hashes each archive and uploads " +
    "what the server does not have yet for this version. An interrupted upload resumes from " +
    "the parts already received. The finalized archives become the tool's binary_urls. With " +
    "--oidc (in GitHub Actions) no PAT is used: the job's OIDC id-token is exchanged for the " +
    "upload, which needs a trusted publisher (anna-app executa trusted-publisher add). Exit 2 " +
    "when the token is refused, 3 when forbidden, 4 when executa.json or the archives are not " +
    "uploadable, 5 when the server refuses the upload, 6 on server or network errors.",
  flags: [
    DIR_FLAG,
    { name: "dry-run", type: "boolean", description: "Plan only: what would upload, what exists" },
    {
      name: "oidc",
      type: "boolean",
      description: "Authenticate with the GitHub Actions OIDC token",
    },
    TOOL_ID_FLAG,
    {
      name: "host",
      type: "string",
      value: "<url>",
      description: "The server (with --oidc: required unless ANNA_APP_HOST is set)",
    },
    ACCOUNT_FLAG,
    { name: "json", type: "boolean", description: "One JSON line with the result" },
  ],
  examples: [
    "anna-app executa upload-binaries",
    "anna-app executa upload-binaries --dry-run",
    "anna-app executa upload-binaries --dir executas/grep --json",
    "anna-app executa upload-binaries --account https://nexus.example.com",
    'anna-app executa upload-binaries --oidc --host "$ANNA_APP_HOST" --tool-id "$TOOL_ID"',
  ],
};

export function progressPrinter(io: CliIo): (p: UploadProgress) => void {
  const tty = io.stderr.isTTY === true;
  return (p) => {
    const pct = p.totalBytes === 0 ? 100 : Math.floor((p.sentBytes / p.totalBytes) * 100);
    const line = `  ↑ ${p.platform}  ${p.partsDone}/${p.partCount} parts  ${pct}%`;
    if (tty) io.stderr.write(`\r${line}${p.partsDone === p.partCount ? "\n" : ""}`);
    else if (p.partsDone === p.partCount) io.stderr.write(`${line}\n`);
  };
}

export function renderUpload(r: UploadResult, io: CliIo): string {
  const s = io.style;
  const lines = [
    r.dry_run
      ? `dry run: binaries of ${r.tool_id} ${r.version} on ${r.host} — nothing was sent:`
      : `${s.green("✓")} binaries of ${r.tool_id} ${r.version} on ${r.host}`,
  ];
  for (const p of r.platforms) {
    const what =
      p.status === "exists"
        ? "exists (skip)"
        : p.status === "upload"
          ? `would upload ${p.byte_size} bytes`
          : `uploaded ${p.byte_size} bytes`;
    lines.push(
      `  ${p.platform.padEnd(15)} ${p.sha256.slice(0, 12)}  ${what}${p.url ? `  ${p.url}` : ""}`,
    );
  }
  return lines.join("\n") + "\n";
}

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    if (args.positionals.length > 0)
      throw usageError(`unexpected argument '${args.positionals[0]}'`, NAME);
    const dir = dirOf(args.flags, io);
    const { loadExecutaProject } = await import("../publish/executa-project.js");
    const { resolveArtifacts } = await import("../publish/binary-artifacts.js");
    const { githubOidcToken, uploadBinaries } = await import("../publish/binary-upload.js");
    const { toolIdFor } = await import("../publish/identity-cache.js");
    const project = await loadExecutaProject(dir);
    if (project.type !== "tool" || project.binaryArtifacts === undefined) {
      throw new ExitError(
        EXIT_INVALID_PROJECT,
        `${project.file}: no distribution.binary_artifacts to upload (declare them with type "binary")`,
      );
    }
    const flagToolId = args.flags["tool-id"] as string | undefined;
    let host: string;
    let auth: Parameters<typeof uploadBinaries>[0]["auth"];
    if (args.flags.oidc === true) {
      const raw = (args.flags.host as string | undefined) ?? io.env.ANNA_APP_HOST;
      if (!raw) throw usageError("--oidc needs --host <url> (or ANNA_APP_HOST)", NAME);
      host = canonicalHost(raw, NAME);
      auth = { kind: "oidc", oidcToken: await githubOidcToken(io.env) };
    } else {
      const selected = await selectAccount(io.env, {
        command: NAME,
        account: accountFlag(args.flags),
      });
      host = selected.host;
      auth = { kind: "pat", client: selected.client };
    }
    const toolId = await toolIdFor(dir, host, flagToolId);
    const artifacts = await resolveArtifacts(project, toolId);
    const json = args.flags.json === true;
    const result = await uploadBinaries({
      host,
      toolId,
      version: project.version,
      artifacts,
      dryRun: args.flags["dry-run"] === true,
      auth,
      ...(json ? {} : { onProgress: progressPrinter(io) }),
    });
    io.stdout.write(json ? JSON.stringify(result) + "\n" : renderUpload(result, io));
    return EXIT_OK;
  },
};
