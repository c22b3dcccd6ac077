// `anna-app dev`: the local app harness (Reference L11563–11585, L7343–7356, R164/R165). This
// module holds only the flag table, so `--help` stays instant; the server loads on run.
import path from "node:path";
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_USAGE, ExitError, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import type { PluginProcess } from "@anna-ai/executa-host";
import type { LogLevel } from "@anna-ai/executa-sdk";
import type { CommandModule } from "./registry.js";

const NAME = "dev";
const EXIT_SIGINT = 130;
const EXIT_SIGTERM = 143;

export const spec: CommandSpec = {
  name: NAME,
  summary: "Run the app in a local harness: dashboard, sandboxed windows, executas, dev panel",
  description:
    "Serves the dashboard on 127.0.0.1 with the app's bundle in a sandboxed iframe, the Host API " +
    "dispatcher enforcing manifest.json's ui.host_api, the app's executas (discovered under " +
    "executas/, spawned on the first tools.invoke), live reload, and a developer panel. Every " +
    "session is recorded to fixtures/ unless --no-record. Exit codes: 2 launch error; Ctrl-C " +
    "stops the executas and exits 130 (SIGTERM: 143).",
  flags: [
    {
      name: "manifest",
      type: "string",
      value: "<path>",
      description: "Manifest path (default: manifest.json)",
    },
    {
      name: "bundle",
      type: "string",
      value: "<dir>",
      description: "Static-file root served at /anna-apps/<slug>/dev/ (default: ./bundle)",
    },
    {
      name: "slug",
      type: "string",
      value: "<slug>",
      description: "Slug used in URLs (default: app.json slug, else the folder name)",
    },
    {
      name: "view",
      type: "string",
      value: "<name>",
      description: "View opened at boot (default: the manifest's default view)",
    },
    {
      name: "port",
      type: "string",
      value: "<n>",
      description: "HTTP port (default: 5180; 0 picks a free one)",
    },
    {
      name: "user-id",
      type: "string",
      value: "<id>",
      description: "Harness user id (default: manifest dev.user_id, else 1)",
    },
    { name: "no-watch", type: "boolean", description: "No live reload or executa restart on save" },
    {
      name: "storage",
      type: "string",
      value: "<mode>",
      choices: ["legacy", "aps"],
      description:
        "legacy = in-memory runtime_state (default); aps = the saved account's Nexus (/api/v1/storage/*, see anna-app login)",
    },
    {
      name: "account",
      type: "string",
      value: "<host>",
      description:
        "Saved account --storage aps uses (default: the current one, see anna-app whoami)",
    },
    {
      name: "executa",
      type: "string",
      multiple: true,
      value: "<spec>",
      description:
        "Register an executa: 'dir=…[,tool_id=…][,type=…][,command=…]'; replaces discovery, bypasses enabled:false",
    },
    {
      name: "llm",
      type: "string",
      value: "<mode>",
      choices: ["real", "mock", "off"],
      description:
        "real = llm.* and agent.* go to the saved account's Nexus (anna-app login first); mock = answers from --mock-llm; off = llm_disabled (default: an offline mock, synthetic or --mock-llm)",
    },
    {
      name: "llm-account",
      type: "string",
      value: "<host>",
      description: "Saved account --llm real uses (default: --account, then the current one)",
    },
    {
      name: "llm-app-slug",
      type: "string",
      value: "<slug>",
      description: "Dev app the --llm real sessions are minted for (default: the app's slug)",
    },
    {
      name: "no-llm",
      type: "boolean",
      description: "Same as --llm off: llm.* and agent.* answer llm_disabled",
    },
    {
      name: "mock-llm",
      type: "string",
      value: "<fixture.jsonl>",
      description:
        "Answer llm.*, agent.* and image.* from a mock-answer fixture; its web lines answer web.search",
    },
    {
      name: "open",
      type: "boolean",
      description: "Open the dashboard in $BROWSER (%s = the URL), else the platform's opener",
    },
    {
      name: "record",
      type: "string",
      value: "<file.jsonl>",
      description:
        "Record the session here (default: dev-session-<time>.jsonl in fixtures/, or where manifest.dev.fixtures' first glob starts)",
    },
    { name: "no-record", type: "boolean", description: "Do not record the session" },
    { name: "json", type: "boolean", description: "Print the boot banner as one JSON line" },
    {
      name: "log-level",
      type: "string",
      value: "<level>",
      choices: ["error", "warn", "info", "debug"],
      description:
        "Harness log on stderr, JSON lines with secrets redacted (default: warn; debug adds a line per request)",
    },
    {
      name: "quiet",
      type: "boolean",
      description:
        "No line per Host API call, reload and executa restart in the terminal, and no recording path on exit",
    },
  ],
  examples: [
    "anna-app dev",
    "anna-app dev --manifest examples/apps/focus-flow/manifest.json --port 5181 --open",
    "anna-app dev --view settings --user-id 7 --no-watch --storage legacy",
    "anna-app dev --storage aps --account http://127.0.0.1:8080  # after anna-app login --host http://127.0.0.1:8080",
    "anna-app dev --executa 'dir=../my-plugin' --executa 'dir=./alt,tool_id=tool-x,type=node'",
    "anna-app dev --no-llm --no-record --json",
    "anna-app dev --llm real  # llm.* and agent.* on the saved account's Nexus (anna-app login first)",
    "anna-app dev --llm mock --mock-llm fixtures/replies.jsonl",
    "anna-app dev --log-level debug 2> harness.log",
    "anna-app dev --quiet",
    "anna-app dev --mock-llm fixtures/llm.jsonl --record fixtures/session.jsonl --bundle dist --slug my-app",
  ],
};

/** `--llm`, `--no-llm` and `--mock-llm` as one mode (L7526–7629); contradictions are usage errors. */
function llmModeOf(flags: ParsedArgs["flags"]): "real" | "mock" | "off" {
  const given = flags.llm as "real" | "mock" | "off" | undefined;
  const fixture = flags["mock-llm"];
  if (flags["no-llm"] === true && given !== undefined && given !== "off") {
    throw usageError(`use either --no-llm or --llm ${given}, not both`, NAME);
  }
  const mode = flags["no-llm"] === true ? "off" : given;
  if (mode === "off" && fixture !== undefined) {
    throw usageError(
      `use either ${given === undefined ? "--no-llm" : "--llm off"} or --mock-llm, not both`,
      NAME,
    );
  }
  if (mode === "real" && fixture !== undefined) {
    throw usageError("--mock-llm goes with --llm mock, not --llm real", NAME);
  }
  if (mode === "mock" && fixture === undefined) {
    throw usageError(
      "--llm mock needs --mock-llm <fixture.jsonl> (without --llm the harness answers synthetically)",
      NAME,
    );
  }
  if (mode !== "real") {
    for (const flag of ["llm-account", "llm-app-slug"]) {
      if (flags[flag] !== undefined) throw usageError(`--${flag} goes with --llm real`, NAME);
    }
  }
  return mode ?? "mock";
}

async function run(args: ParsedArgs, io: CliIo): Promise<number> {
  const flags = args.flags;
  const port = flags.port === undefined ? undefined : Number(flags.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw usageError(`--port ${String(flags.port)}: a port is 0–65535`, NAME);
  }
  const llm = llmModeOf(flags);
  if (flags.account !== undefined && flags.storage !== "aps" && llm !== "real") {
    throw usageError(
      "--account goes with --storage aps or --llm real (the saved account they use)",
      NAME,
    );
  }
  if (flags.record !== undefined && flags["no-record"] === true) {
    throw usageError("use either --record or --no-record, not both", NAME);
  }
  const { loadDevHarness } = await import("../dev/load-harness.js");
  const { StderrLogger } = await import("@anna-ai/executa-sdk");
  const logger = new StderrLogger({
    level: (flags["log-level"] as LogLevel | undefined) ?? "warn",
    fields: { source: "anna-app dev" },
    write: (line) => void io.stderr.write(line),
  });
  const {
    startDevServer,
    DevLaunchError,
    devBanner,
    formatBanner,
    followActivity,
    STDERR_TAIL_LINES,
  } = await loadDevHarness();
  const resolve = (value: unknown) =>
    typeof value === "string" ? path.resolve(io.cwd, value) : undefined;
  let server;
  try {
    server = await startDevServer({
      manifestPath: resolve(flags.manifest) ?? path.join(io.cwd, "manifest.json"),
      ...opt("bundleDir", resolve(flags.bundle)),
      ...opt("slug", flags.slug as string | undefined),
      ...opt("view", flags.view as string | undefined),
      ...opt("port", port),
      ...opt("userId", flags["user-id"] as string | undefined),
      watch: flags["no-watch"] !== true,
      ...opt("storage", flags.storage as "legacy" | "aps" | undefined),
      ...opt("account", flags.account as string | undefined),
      env: io.env,
      executa: (flags.executa as string[] | undefined) ?? [],
      llm,
      ...opt("llmAccount", flags["llm-account"] as string | undefined),
      ...opt("llmAppSlug", flags["llm-app-slug"] as string | undefined),
      ...opt("mockLlm", resolve(flags["mock-llm"])),
      record: flags["no-record"] === true ? false : (resolve(flags.record) ?? undefined),
      cwd: io.cwd,
      logger,
    });
  } catch (error) {
    if (error instanceof DevLaunchError)
      throw new ExitError(EXIT_USAGE, error.message, { cause: error });
    throw error;
  }
  // Listen before printing: a script may send Ctrl-C as soon as it reads the banner.
  const stopped = new Promise<NodeJS.Signals>((done) => {
    const onSignal = (s: NodeJS.Signals) => done(s);
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
  });
  const banner = await devBanner(server);
  io.stdout.write(
    flags.json === true ? JSON.stringify(banner) + "\n" : formatBanner(banner, io.style, io.cwd),
  );
  // A plugin that cannot start says why where the developer is looking.
  let stopping = false;
  const follow = (proc: PluginProcess) =>
    proc.on("state", ({ state, reason }) => {
      if (stopping || (state !== "stopped" && state !== "crashed")) return;
      const tail = proc.stderrTail(STDERR_TAIL_LINES);
      io.stderr.write(
        `executa ${proc.toolId} ${state}${reason === undefined ? "" : `: ${reason}`}\n` +
          tail.map((line) => `  | ${line}\n`).join(""),
      );
    });
  for (const proc of server.host.processes()) follow(proc);
  server.host.onProcess(follow);
  // The terminal narrates the session, except for scripts (--json keeps stdout one JSON line).
  const narrate = flags.quiet !== true && flags.json !== true;
  if (narrate) followActivity(server.panel, (line) => io.stdout.write(line), io.style);
  if (flags.open === true) {
    const { openBrowser } = await import("../dev/open-browser.js");
    openBrowser(server.url, io.env, (message) => io.stderr.write(`${message}\n`));
  }

  const signal = await stopped;
  stopping = true;
  await server.close();
  if (narrate && server.recordPath !== undefined) {
    io.stdout.write(`Recorded the session to ${path.relative(io.cwd, server.recordPath)}\n`);
  }
  return signal === "SIGINT" ? EXIT_SIGINT : EXIT_SIGTERM;
}

function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

export const command: CommandModule = { spec, run };
