// The REPL of `executa dev`: a banner, then commands until quit. Plugin stderr, restarts and
// stops are printed above the prompt as they happen.
import type { DescribedManifest, LaunchSpec } from "@anna-ai/executa-host";
import { EXIT_OK, EXIT_USAGE } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { colorJson } from "../cli/style.js";
import { parseArgsJson } from "./args-input.js";
import { formatOutcome, parametersOf, toolsTable } from "./format.js";
import type { FrameTracer } from "./frame-trace.js";
import { REPL_COMMANDS, startRepl } from "./repl.js";
import type { DevSession } from "./session.js";

export interface ReplOptions {
  launch: LaunchSpec;
  services: Record<string, string>;
  setTrace(on: boolean): void;
  isTracing(): boolean;
  tracer: FrameTracer;
}

export async function runRepl(
  session: DevSession,
  io: CliIo,
  options: ReplOptions,
): Promise<number> {
  const s = io.style;
  const { launch } = options;
  const out = (text: string) => io.stdout.write(text + "\n");
  out(`${s.bold("anna-app executa dev")} ${s.dim("—")} ${s.cyan(launch.toolId)}`);
  out(`  ${s.dim("from")}     ${launch.source} in ${launch.dir}`);
  out(`  ${s.dim("command")}  ${launch.command.join(" ")}`);
  for (const w of launch.warnings) out(`  ${s.yellow("warning")}  ${w}`);
  out(
    `  ${s.dim("services")} ${Object.entries(options.services)
      .map(([k, v]) => `${k}=${v}`)
      .join("  ")}`,
  );

  let manifest: DescribedManifest | undefined;
  try {
    manifest = await session.describe();
  } catch (error) {
    const tail = session.stderrTail(10);
    io.stderr.write(
      `${io.errStyle.red("error:")} ${launch.toolId} did not start: ${(error as Error).message}\n` +
        tail.map((l) => `  ${io.errStyle.dim("[plugin]")} ${l}\n`).join(""),
    );
    return EXIT_USAGE;
  }
  out(
    `  ${s.dim("protocol")} ${session.process.protocolVersion ?? "?"}  ${s.dim("tools")} ${manifest.tools.map((t) => t.name).join(", ") || "(none)"}`,
  );
  out(s.dim("Type 'help' for commands, 'quit' to leave."));

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

  const offs = [
    session.process.on("stderr", (e) => repl.print(`${s.dim("[plugin]")} ${e.line}`)),
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
    session.process.on("frame", (e) => {
      if (options.isTracing()) repl.print(options.tracer.line(e.direction, e.message, e.meta));
    }),
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
        const jsonText = line.slice(line.indexOf(tool) + tool.length).trim();
        let args: Record<string, unknown>;
        try {
          args = parseArgsJson(jsonText, "arguments");
        } catch (error) {
          repl.print(s.red((error as Error).message.replace(/ \(see: .*\)$/, "")));
          return;
        }
        const known = (await session.describe()).tools.map((t) => t.name);
        if (!known.includes(tool)) {
          repl.print(s.red(`no tool '${tool}'; tools: ${known.join(", ") || "(none)"}`));
          return;
        }
        repl.print(formatOutcome(tool, await session.invoke(tool, args), s));
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
    for (const off of offs) off();
  }
  return EXIT_OK;
}
