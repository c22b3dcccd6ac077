// The implementation of `anna-app executa dev` (flags in commands/executa-dev.ts): resolve the
// launch, build the services, then a REPL or one describe/health/invoke.
import path from "node:path";
import {
  LaunchError,
  detectLaunchSpec,
  resolveSpecString,
  SAMPLING_DISABLED_MESSAGE,
  toolchainProblem,
  type HealthReport,
  type LaunchSpec,
} from "@anna-ai/executa-host";
import { Redactor, type JsonRpcMessage } from "@anna-ai/jsonrpc";
import type { FlagValues, ParsedArgs } from "../cli/args.js";
import {
  EXIT_OK,
  EXIT_RUNTIME,
  EXIT_SIGINT,
  EXIT_SIGTERM,
  EXIT_USAGE,
  ExitError,
  usageError,
} from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { colorJson } from "../cli/style.js";
import { readArgsFlag } from "./args-input.js";
import { runRepl } from "./dev-repl.js";
import { formatOutcome, outcomeJson, undescribedToolLine } from "./format.js";
import { FrameTracer } from "./frame-trace.js";
import { buildDevRouter } from "./services.js";
import { DevSession } from "./session.js";

const NAME = "executa dev";
/** Plugin stderr lines quoted when it fails to start. */
const START_STDERR_LINES = 10;

export async function runExecutaDev(args: ParsedArgs, io: CliIo): Promise<number> {
  const flags = args.flags;
  if (args.positionals.length > 0) {
    throw usageError(
      `unexpected argument '${args.positionals[0]}'; use --dir <dir> for the plugin folder`,
      NAME,
    );
  }
  const oneShot = [flags.describe, flags.health, flags.invoke !== undefined].filter(Boolean).length;
  if (oneShot > 1) throw usageError("use only one of --describe, --health, --invoke", NAME);
  if (flags.args !== undefined && flags.invoke === undefined) {
    throw usageError("--args goes with --invoke <tool>", NAME);
  }
  if (flags.json === true && !oneShot) {
    throw usageError("--json goes with --describe, --health or --invoke", NAME);
  }
  const ui = flags.ui === true;
  if (ui && oneShot) {
    throw usageError("--ui is a session of its own; drop --describe, --health or --invoke", NAME);
  }
  if (!ui && (flags["ui-port"] !== undefined || flags.open === true)) {
    throw usageError(`${flags.open === true ? "--open" : "--ui-port"} goes with --ui`, NAME);
  }
  const uiPort = parseUiPort(flags["ui-port"]);
  const json = flags.json === true;
  const credentials = parseCredentials(flags.credential as string[] | undefined);
  const toolArgs =
    flags.invoke !== undefined
      ? await readArgsFlag(flags.args as string | undefined, io.cwd, io.stdin)
      : {};
  const launch = await resolveLaunch(flags, io);
  const router = await buildDevRouter(flags, io, { toolId: launch.toolId });

  // `| head` closing a pipe must not crash the CLI with an unhandled EPIPE.
  const ignorePipeError = (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  };
  io.stdout.on("error", ignorePipeError);
  io.stderr.on("error", ignorePipeError);

  // One list of secrets for the transcript, the trace and the plugin's stderr lines.
  const redactor = new Redactor([...Object.values(credentials), ...router.secretValues]);
  router.onSecrets((values) => redactor.add(values));
  const tracer = new FrameTracer(io.errStyle, redactor);
  let tracing = flags.trace === true;
  // Where trace and plugin lines go: straight to stderr in one-shot mode, above the prompt in
  // the REPL. Plugin stderr waits until the plugin has started: if it fails, its last lines
  // are part of the one-line error instead.
  const out: { err: (line: string) => void } = {
    err: (line) => void io.stderr.write(line + "\n"),
  };
  let started = false;
  // Set when the host answered a sampling call with `sampling_disabled` (the default mode): the
  // plugin may turn it into any message, so one-shot mode adds the flag that fixes it.
  let samplingRefused = false;
  const recordPath =
    typeof flags.record === "string" ? path.resolve(io.cwd, flags.record) : undefined;
  const session = openSession(
    () =>
      new DevSession(
        {
          spec: launch,
          router: router.factory,
          env: io.env,
          credentials,
          redactor,
          ...(recordPath !== undefined ? { recordPath } : {}),
        },
        {
          frame: (dir, msg, meta) => {
            if (isSamplingDisabledAnswer(msg)) samplingRefused = true;
            // Rendering a line (redaction, JSON) costs more than the frame: only when tracing.
            if (tracing) out.err(tracer.line(dir, msg, meta));
            else tracer.track(dir, msg);
          },
          stderr: (line) => {
            if (started && !json) out.err(`${io.errStyle.dim("[plugin]")} ${redactor.text(line)}`);
          },
        },
      ),
    recordPath,
  );

  // `executa/progress` from the plugin: a line each, like its stderr (never under --json).
  router.onProgress((event) => {
    if (!json) {
      const data = event.data === null ? "" : ` ${JSON.stringify(event.data)}`;
      out.err(`${io.errStyle.dim("[progress]")} ${event.tool} ${event.type}${data}`);
    }
  });

  // Ctrl-C / SIGTERM: shut the plugin down as the host would (H4) instead of dying with it still
  // running in its own process group, then leave with 130/143.
  const interrupt = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupt.signal.aborted) return;
    interrupt.abort(signal);
    void session.close();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const checkInterrupted = () => {
    const signal = interrupt.signal.reason as NodeJS.Signals | undefined;
    if (signal !== undefined) {
      throw new ExitError(
        signal === "SIGINT" ? EXIT_SIGINT : EXIT_SIGTERM,
        `interrupted (${signal}); the plugin was shut down`,
      );
    }
  };

  try {
    if (ui) {
      // Outside the bundle (see inspector/run-ui.ts): one-shot runs never load the server.
      const { runInspector } = await import("../inspector/run-ui.js");
      const code = await runInspector(io, {
        session,
        launch,
        router,
        redactor,
        port: uiPort,
        open: flags.open === true,
        interrupt: interrupt.signal,
        onStarted: () => (started = true),
      });
      checkInterrupted();
      return code;
    }
    if (!oneShot) {
      const code = await runRepl(session, io, {
        interrupt: interrupt.signal,
        launch,
        router,
        setTrace: (on) => (tracing = on),
        isTracing: () => tracing,
        setErrorSink: (sink) => (out.err = sink),
        onStarted: () => (started = true),
      });
      checkInterrupted();
      return code;
    }
    // The REPL banner shows launch warnings; one-shot modes say them first, on stderr (a
    // toolchain problem only once: it is the error if the start fails).
    const toolchain = launch.toolchain && toolchainProblem(launch.toolchain);
    for (const warning of launch.warnings) {
      if (warning !== toolchain) out.err(`${io.errStyle.yellow("warning:")} ${warning}`);
    }
    const manifest = await startOrExplain(session, launch, checkInterrupted);
    started = true;
    if (!json) {
      for (const line of session.stderrTail()) {
        out.err(`${io.errStyle.dim("[plugin]")} ${redactor.text(line)}`);
      }
    }
    if (flags.describe) {
      io.stdout.write((json ? JSON.stringify(manifest) : colorJson(manifest, io.style)) + "\n");
      return EXIT_OK;
    }
    if (flags.health) {
      const report = await session.health();
      checkInterrupted();
      io.stdout.write((json ? healthJson(report) : colorJson(healthView(report), io.style)) + "\n");
      return report.status === "unhealthy" ? EXIT_RUNTIME : EXIT_OK;
    }
    const tool = flags.invoke as string;
    // The plugin decides what its tools are: an undescribed name is still sent, and its answer
    // (usually -32601) is what scripts read; the described list follows on stderr.
    const described = manifest.tools.some((t) => t.name === tool);
    const outcome = await session.invoke(tool, toolArgs);
    checkInterrupted();
    io.stdout.write((json ? outcomeJson(outcome) : formatOutcome(tool, outcome, io.style)) + "\n");
    if (samplingRefused) {
      out.err(
        `${io.errStyle.yellow("hint:")} ${tool} called sampling/createMessage and got sampling_disabled: sampling is off by default; answer it offline with --mock-sampling <fixture.jsonl>`,
      );
    }
    if (!described) {
      out.err(
        undescribedToolLine(
          launch.toolId,
          tool,
          manifest.tools.map((t) => t.name),
        ),
      );
      return EXIT_RUNTIME;
    }
    return outcome.ok ? EXIT_OK : EXIT_RUNTIME;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await session.close();
    await router.close();
    io.stdout.off("error", ignorePipeError);
    io.stderr.off("error", ignorePipeError);
  }
}

export async function resolveLaunch(flags: FlagValues, io: CliIo): Promise<LaunchSpec> {
  const dir = path.resolve(io.cwd, typeof flags.dir === "string" ? flags.dir : ".");
  try {
    if (typeof flags.spec === "string") {
      if (flags.plugin !== undefined)
        throw usageError("use --plugin with --dir, not with --spec", NAME);
      return await resolveSpecString(flags.spec, {
        flag: "--spec",
        cwd: io.cwd,
        defaultDir: dir,
        env: io.env,
      });
    }
    return await detectLaunchSpec(dir, {
      env: io.env,
      ...(typeof flags.plugin === "string" ? { pluginFile: flags.plugin } : {}),
    });
  } catch (error) {
    if (error instanceof LaunchError)
      throw new ExitError(EXIT_USAGE, error.message, { cause: error });
    throw error;
  }
}

/** Starting is where most plugins fail: name the plugin and show its last stderr lines. */
async function startOrExplain(
  session: DevSession,
  launch: LaunchSpec,
  checkInterrupted: () => void,
) {
  try {
    const manifest = await session.describe();
    checkInterrupted();
    return manifest;
  } catch (error) {
    checkInterrupted();
    if (error instanceof ExitError) throw error;
    const tail = session.stderrTail(START_STDERR_LINES);
    const toolchain = launch.toolchain && toolchainProblem(launch.toolchain);
    if (toolchain !== undefined && launch.toolchain?.path === undefined) {
      // The host refused to spawn: the toolchain line is the whole story.
      throw new ExitError(EXIT_USAGE, `${launch.toolId} did not start: ${toolchain}`, {
        cause: error,
      });
    }
    const message = error instanceof Error ? error.message : String(error);
    // Process errors already quote stderr; add the tail only when they do not.
    const stderr =
      tail.length && !message.includes("stderr:") ? `; last stderr: ${tail.join(" | ")}` : "";
    // What detection warned about is often why it failed (a path source missing, uv absent).
    const warnings = launch.warnings.filter((w) => w !== toolchain);
    const warned = warnings.length ? `; launch warnings: ${warnings.join(" | ")}` : "";
    // A too old toolchain is the likeliest cause: it leads.
    const first = toolchain === undefined ? "" : `${toolchain}; `;
    throw new ExitError(
      EXIT_USAGE,
      `${launch.toolId} (${launch.command.join(" ")}) did not start: ${first}${message}${stderr}${warned}`,
      {
        cause: error,
      },
    );
  }
}

function isSamplingDisabledAnswer(message: JsonRpcMessage): boolean {
  const error = (message as { error?: { message?: unknown } }).error;
  return error !== undefined && error.message === SAMPLING_DISABLED_MESSAGE;
}

/** The interpreted state, for people: H8's mapping beside what the plugin said. */
function healthView(report: HealthReport): Record<string, unknown> {
  return {
    status: report.status,
    state: report.state,
    ...(report.detail ? { detail: report.detail } : {}),
    ...(report.raw !== undefined ? { raw: report.raw } : {}),
    ...(report.error !== undefined ? { error: report.error } : {}),
  };
}

/**
 * `--health --json`: what the plugin answered (its result, or the JSON-RPC error object, as
 * `--invoke --json` prints one); the interpreted state only when there was no answer at all.
 */
function healthJson(report: HealthReport): string {
  if (report.raw !== undefined) return JSON.stringify(report.raw);
  if (report.error !== undefined) return JSON.stringify(report.error);
  return JSON.stringify(healthView(report));
}

/** `--ui-port`: 0 (a free port) unless given. */
function parseUiPort(value: unknown): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (
    typeof value !== "string" ||
    value.trim() === "" ||
    !Number.isInteger(port) ||
    port < 0 ||
    port > 65_535
  ) {
    throw usageError(
      `--ui-port takes a port number 0–65535 (0 picks a free one), got ${JSON.stringify(value)}`,
      NAME,
    );
  }
  return port;
}

function parseCredentials(values: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const value of values ?? []) {
    const eq = value.indexOf("=");
    if (eq <= 0) throw usageError(`--credential '${value}' must be NAME=VALUE`, NAME);
    out[value.slice(0, eq)] = value.slice(eq + 1);
  }
  return out;
}

/** The only thing that can fail while opening a session is the --record file: say which. */
function openSession(open: () => DevSession, recordPath: string | undefined): DevSession {
  try {
    return open();
  } catch (error) {
    if (recordPath === undefined) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? "its folder does not exist"
        : code === "EACCES"
          ? "permission denied"
          : error instanceof Error
            ? error.message
            : String(error);
    throw new ExitError(EXIT_USAGE, `--record ${recordPath}: cannot write (${reason})`, {
      cause: error,
    });
  }
}
