// The REPL of `executa dev`: a banner, then commands until quit. Plugin stderr, restarts and
// stops are printed above the prompt as they happen.
import type { DescribedManifest, LaunchSpec } from "@anna-ai/executa-host";
import { EXIT_OK, EXIT_SIGINT, EXIT_USAGE } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { colorJson, type Style } from "../cli/style.js";
import { parseArgsJson } from "./args-input.js";
import { undescribedToolLine, formatOutcome, parametersOf, toolsTable } from "./format.js";
import type { DevRouter } from "./services.js";
import { REPL_COMMANDS, startRepl } from "./repl.js";
import type { DevSession } from "./session.js";

export interface ReplOptions {
  launch: LaunchSpec;
  /** Aborted by SIGINT/SIGTERM: the REPL ends (the caller shuts the plugin down). */
  interrupt: AbortSignal;
  router: Pick<DevRouter, "summary" | "hints" | "notGranted">;
  setTrace(on: boolean): void;
  isTracing(): boolean;
  /** Redirects trace and plugin stderr lines (so they print above the prompt). */
  setErrorSink(sink: (line: string) => void): void;
  /** The plugin has started: plugin stderr may flow from now on. */
  onStarted(): void;
}

export async function runRepl(
  session: DevSession,
  io: CliIo,
  options: ReplOptions,
): Promise<number> {
  const s = io.style;
  const { launch } = options;
  const out = (text: string) => io.stdout.write(text + "\n");
  for (const line of bannerLines(launch, options.router, s)) out(line);

  let manifest: DescribedManifest | undefined;
  try {
    manifest = await session.describe();
  } catch (error) {
    const tail = session.stderrTail(10);
    const message = error instanceof Error ? error.message : String(error);
    const stderr =
      tail.length && !message.includes("stderr:") ? `; last stderr: ${tail.join(" | ")}` : "";
    io.stderr.write(
      `${io.errStyle.red("error:")} ${launch.toolId} did not start: ${message}${stderr}\n`,
    );
    return EXIT_USAGE;
  }
  out(
    `  ${s.dim("protocol")} ${session.process.protocolVersion ?? "?"}  ${s.dim("tools")} ${manifest.tools.map((t) => t.name).join(", ") || "(none)"}`,
  );
  for (const warning of session.warnings) out(`  ${s.yellow("warning")}  ${warning}`);
  out(s.dim("Type 'help' for commands, 'quit' to leave."));
  for (const line of session.stderrTail())
    io.stderr.write(`${io.errStyle.dim("[plugin]")} ${line}\n`);

  const repl = startRepl(
    io,
    {
      run: (line) => runLine(line),
      toolNames: () => (session.process.manifest ?? manifest)?.tools.map((t) => t.name) ?? [],
      parameterNames: (tool) => {
        const def = (session.process.manifest ?? manifest)?.tools.find((t) => t.name === tool);
        return def ? parametersOf(def).map((p) => p.name) : [];
      },
    },
    `${launch.toolId}> `,
  );

  options.setErrorSink((line) => repl.printErr(line));
  const onInterrupt = () => repl.close();
  if (options.interrupt.aborted) repl.close();
  options.interrupt.addEventListener("abort", onInterrupt);
  options.onStarted();
  const offs = [
    session.process.on("restart", (e) =>
      repl.print(
        s.yellow(
          `↻ plugin restarting (attempt ${e.attempt}/${e.maxAttempts} in ${e.delayMs}ms): ${e.reason}`,
        ),
      ),
    ),
    session.process.on("state", (e) => {
      if (e.state === "stopped" && e.reason) repl.print(s.red(`■ plugin stopped: ${e.reason}`));
      if (e.state === "crashed")
        repl.print(s.red(`✗ plugin exited unexpectedly${e.reason ? `: ${e.reason}` : ""}`));
    }),
    session.process.on("warning", (e) => repl.print(`${s.yellow("warning:")} ${e.message}`)),
  ];

  async function runLine(line: string): Promise<void> {
    const [word = "", ...rest] = line.split(/\s+/);
    switch (word) {
      case "describe":
        repl.print(colorJson(await session.describe(), s));
        return;
      case "health": {
        const report = await session.health();
        repl.print(
          colorJson(
            { status: report.status, state: report.state, detail: report.detail, raw: report.raw },
            s,
          ),
        );
        return;
      }
      case "tools":
        repl.print(toolsTable(await session.describe(), s));
        return;
      case "invoke": {
        const tool = rest[0];
        if (!tool) {
          repl.print("usage: invoke <tool> [json-args]");
          return;
        }
        // Everything after the tool word is the JSON (it may contain spaces).
        const jsonText = /^\S+\s+\S+\s*(.*)$/s.exec(line)?.[1]?.trim() ?? "";
        let args: Record<string, unknown>;
        try {
          args = parseArgsJson(jsonText, "arguments");
        } catch (error) {
          repl.print(s.red((error as Error).message.replace(/ \(see: .*\)$/, "")));
          return;
        }
        // Sent even when undescribed, as in one-shot mode: the plugin decides what its tools are.
        const known = (await session.describe()).tools.map((t) => t.name);
        repl.print(formatOutcome(tool, await session.invoke(tool, args), s));
        if (!known.includes(tool))
          repl.print(s.red(undescribedToolLine(launch.toolId, tool, known)));
        return;
      }
      case "trace": {
        const arg = rest[0];
        if (arg !== "on" && arg !== "off") {
          repl.print(`trace is ${options.isTracing() ? "on" : "off"}; usage: trace on|off`);
          return;
        }
        options.setTrace(arg === "on");
        repl.print(`trace ${arg}`);
        return;
      }
      case "restart":
        await session.restart();
        await session.describe();
        repl.print(s.green(`restarted ${launch.toolId} (pid ${session.process.pid ?? "?"})`));
        return;
      case "help":
      case "?":
        repl.print(REPL_COMMANDS.map((c) => `  ${c.usage.padEnd(28)}${c.summary}`).join("\n"));
        return;
      default:
        repl.print(s.red(`unknown command '${word}'; type 'help' for the list`));
    }
  }

  try {
    await repl.done;
  } finally {
    options.interrupt.removeEventListener("abort", onInterrupt);
    for (const off of offs) off();
  }
  // Ctrl-C ends the session like a signal does in one-shot mode (the plugin is shut down after).
  return repl.interrupted() ? EXIT_SIGINT : EXIT_OK;
}

/** Plugin, where it was found, its command, then each family's mode and how to turn it on. */
export function bannerLines(
  launch: LaunchSpec,
  router: Pick<DevRouter, "summary" | "hints" | "notGranted">,
  s: Style,
): string[] {
  const lines = [
    `${s.bold("anna-app executa dev")} ${s.dim("—")} ${s.cyan(launch.toolId)}`,
    `  ${s.dim("from")}     ${launch.source} in ${launch.dir}`,
    `  ${s.dim("command")}  ${launch.command.join(" ")}`,
  ];
  for (const w of launch.warnings) lines.push(`  ${s.yellow("warning")}  ${w}`);
  lines.push(
    `  ${s.dim("services")} ${Object.entries(router.summary)
      .map(([k, v]) => `${k}=${v}`)
      .join("  ")}`,
  );
  if (router.notGranted.length > 0) {
    lines.push(`  ${s.dim("grants")}   not granted: ${router.notGranted.join(", ")}`);
  }
  for (const hint of router.hints) lines.push(`  ${s.dim("hint")}     ${hint}`);
  return lines;
}
