// `anna-app executa install` (R78–R80): install a published executa from the Executa Hub (its
// frozen version's `binary_urls`, downloaded and verified) or a local folder or archive (the
// `local` distribution, "Rediscover Local"), through the pipeline in
// @anna-ai/executa-host/install. Exit 2 for a bad request, 4 for a local folder that cannot be
// installed as it is, 5 when the server or the archive refuses, 6 when the download fails.
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import type { InstallError, InstallRequest, InstallResult } from "@anna-ai/executa-host/install";
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import {
  EXIT_INVALID_PROJECT,
  EXIT_OK,
  EXIT_REQUEST_FAILED,
  EXIT_SERVER,
  EXIT_USAGE,
  ExitError,
  usageError,
} from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { progressBar } from "../cli/progress-bar.js";
import { ACCOUNT_FLAG, accountFlag, selectAccount } from "../account/select-account.js";
import { listExecutas, resolveRef } from "../publish/executa-refs.js";
import { identityPath } from "../publish/identity-cache.js";
import type { CommandModule } from "./registry.js";

const NAME = "executa install";

const spec: CommandSpec = {
  name: NAME,
  summary: "Install an executa: a published one from the Hub, or a local folder or archive",
  description:
    "With <ref> (one of your executas' slug, or any installable tool_id), reads the frozen " +
    "version's distribution from the Executa Hub, downloads this platform's archive, checks its " +
    "size and sha256, and installs it under ~/.anna/executa/tools/<tool_id>/v<version> with " +
    "`current` and the bin/<name> shim (ANNA_EXECUTA_HOME or --home move the root). With " +
    "--local (or --dir, or no <ref>) the folder or archive on this machine is installed the " +
    "same way, under the tool_id of .anna/executa.json or executa.json unless --tool-id.",
  positionals: [
    { name: "ref", description: "Slug or tool_id (omit with --local)", required: false },
  ],
  flags: [
    {
      name: "version",
      type: "string",
      value: "<semver>",
      description: "Install this version (default: the latest frozen one)",
    },
    ACCOUNT_FLAG,
    { name: "host", type: "string", value: "<url>", description: "Same as --account" },
    {
      name: "home",
      type: "string",
      value: "<dir>",
      description: "Install root (default: ANNA_EXECUTA_HOME or ~/.anna/executa)",
    },
    {
      name: "local",
      type: "string",
      value: "<dir|archive>",
      description: "Install this folder or .tar.gz/.zip instead of a published executa",
    },
    {
      name: "dir",
      type: "string",
      value: "<dir>",
      description: "Same as --local (the published CLI's spelling)",
    },
    {
      name: "executable-name",
      type: "string",
      value: "<name>",
      description: "Name of the bin/<name> shim (local default: the tool_id)",
    },
    {
      name: "tool-id",
      type: "string",
      value: "<id>",
      description: "Install a local folder under this tool_id",
    },
    {
      name: "bin-dir",
      type: "string",
      value: "<dir>",
      description: "Where shims go (default: <home>/bin)",
    },
    {
      name: "force",
      type: "boolean",
      description: "Take over a bin/<name> that starts another tool",
    },
    {
      name: "json",
      type: "boolean",
      description: "One JSON line with the install (no progress bar)",
    },
  ],
  examples: [
    "anna-app executa install weather",
    "anna-app executa install tool-ada-weather-x1y2z3 --version 1.2.0 --json",
    "anna-app executa install weather --home /opt/anna/executa --account https://nexus.example.com",
    "anna-app executa install --local dist/weather-linux-x86_64.tar.gz --executable-name weather",
    "anna-app executa install --local . --tool-id tool-ada-weather-x1y2z3",
    "anna-app executa install --dir . --bin-dir ~/.local/bin --force",
    "anna-app executa install weather --host https://nexus.example.com",
  ],
};

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

interface Distribution {
  tool_id: string;
  version: string;
  distribution_type: string | null;
  package_name: string | null;
  executable_name: string | null;
  binary_urls: Record<string, unknown> | null;
  name: string;
}

/** The tool_id a local folder is known by: `.anna/executa.json`, else `executa.json`. */
async function localToolId(dir: string): Promise<string | undefined> {
  for (const file of [identityPath(dir), path.join(dir, "executa.json")]) {
    try {
      const json = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
      if (typeof json.tool_id === "string" && json.tool_id !== "") return json.tool_id;
    } catch {
      // Missing or unreadable: try the next one.
    }
  }
  return undefined;
}

function exitFor(err: InstallError, local: boolean): number {
  switch (err.code) {
    case "INVALID_REQUEST":
      return EXIT_USAGE;
    case "DOWNLOAD_FAILED":
      return EXIT_SERVER;
    case "INVALID_MANIFEST":
    case "NO_ENTRYPOINT":
    case "UNSAFE_ARCHIVE":
    case "CORRUPT_ARCHIVE":
      return local ? EXIT_INVALID_PROJECT : EXIT_REQUEST_FAILED;
    default:
      return EXIT_REQUEST_FAILED;
  }
}

async function remoteRequest(
  args: ParsedArgs,
  io: CliIo,
  ref: string,
): Promise<{ host: string; request: InstallRequest; fetch: typeof fetch }> {
  const { client, host } = await selectAccount(io.env, {
    command: NAME,
    account: accountFlag(args.flags),
  });
  let toolId = ref;
  try {
    toolId = resolveRef(await listExecutas(client), ref, "read", host).tool_id;
  } catch (err) {
    // Not one of yours (or ambiguous among yours): a full tool_id is looked up as given.
    if (!(err instanceof ExitError) || err.message.includes("ambiguous")) throw err;
  }
  const version = str(args.flags.version);
  const d = (
    await client.get<Distribution>(`/api/v1/executas/${encodeURIComponent(toolId)}/install`, {
      what: `reading ${toolId}`,
      ...(version === undefined ? {} : { query: { version } }),
    })
  ).body;
  if (d.distribution_type === "local") {
    throw new ExitError(
      EXIT_REQUEST_FAILED,
      `${d.tool_id} ${d.version} is a local (development) executa: its archive is on its author's machine; there, run \`anna-app executa install --local <dir>\``,
    );
  }
  return {
    host,
    fetch: client.downloadFetch(),
    request: {
      distribution_type: d.distribution_type ?? "binary",
      tool_id: d.tool_id,
      version: d.version,
      name: d.name,
      binary_urls: d.binary_urls ?? undefined,
      package_name: d.package_name ?? undefined,
      executable_name: str(args.flags["executable-name"]) ?? d.executable_name ?? undefined,
    },
  };
}

async function localRequest(args: ParsedArgs, io: CliIo, source: string): Promise<InstallRequest> {
  const localPath = path.resolve(io.cwd, source);
  const folder = await readFile(path.join(localPath, "executa.json")).then(
    () => true,
    () => false,
  );
  const toolId = str(args.flags["tool-id"]) ?? (folder ? await localToolId(localPath) : undefined);
  const executableName = str(args.flags["executable-name"]) ?? toolId;
  if (executableName === undefined) {
    throw usageError(
      `${localPath}: say what to call it: --executable-name <name> (and --tool-id <id>), or publish it once so .anna/executa.json names its tool_id`,
      NAME,
    );
  }
  return {
    distribution_type: "local",
    local_path: localPath,
    executable_name: executableName,
    ...(toolId === undefined ? {} : { tool_id: toolId }),
    ...(str(args.flags.version) === undefined ? {} : { version: str(args.flags.version) }),
  };
}

function print(io: CliIo, r: InstallResult, host: string | undefined, json: boolean): void {
  if (json) {
    io.stdout.write(JSON.stringify({ ...(host === undefined ? {} : { host }), ...r }) + "\n");
    return;
  }
  for (const w of r.warnings) io.stderr.write(`${io.errStyle.yellow("warning:")} ${w}\n`);
  io.stdout.write(
    `${io.style.green("✓")} installed ${io.style.bold(r.tool_id)} ${r.version} (${r.record.distribution_type}, ${r.record.platform})\n` +
      `  folder  ${r.dir}\n` +
      `  shim    ${r.shim}\n` +
      `  entry   ${r.entrypoint}\n` +
      (r.removed_versions.length > 0 ? `  removed ${r.removed_versions.join(", ")}\n` : ""),
  );
}

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const [ref, extra] = args.positionals;
    if (extra !== undefined) throw usageError(`unexpected argument '${extra}'`, NAME);
    const source = str(args.flags.local) ?? str(args.flags.dir);
    if (ref !== undefined && source !== undefined)
      throw usageError("give either <ref> (a published executa) or --local <dir>, not both", NAME);
    const json = args.flags.json === true;
    // Loaded here so `--help` does not pay for tar and zip.
    const {
      executaHome,
      InstallError: InstallErrorClass,
      installExecuta,
    } = await import("@anna-ai/executa-host/install");
    const local = ref === undefined;
    const bar = progressBar(io, !json && io.stderr.isTTY === true);
    try {
      const home =
        str(args.flags.home) === undefined
          ? executaHome(io.env)
          : path.resolve(io.cwd, str(args.flags.home)!);
      const { host, request, fetch } = local
        ? {
            host: undefined,
            request: await localRequest(args, io, source ?? io.cwd),
            fetch: undefined,
          }
        : await remoteRequest(args, io, ref);
      const binDir = str(args.flags["bin-dir"]);
      const result = await installExecuta(request, {
        home,
        env: io.env,
        force: args.flags.force === true,
        fetch,
        ...(binDir === undefined ? {} : { binDir: path.resolve(io.cwd, binDir) }),
        onProgress: (p) => {
          const label = `${p.phase === "download" ? "downloading" : p.phase} ${p.tool_id}`;
          bar.update(label, p.bytes_downloaded ?? 0, p.bytes_total ?? null);
        },
      });
      bar.clear();
      print(io, result, host, json);
      return EXIT_OK;
    } catch (err) {
      bar.clear();
      if (err instanceof InstallErrorClass)
        throw new ExitError(exitFor(err, local), err.message, { cause: err });
      throw err;
    }
  },
};
