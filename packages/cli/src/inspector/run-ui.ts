// `anna-app executa dev --ui`: the inspector instead of the REPL. The banner as the REPL prints
// it, the inspector's URL, then the plugin starts; the command serves until Ctrl-C or SIGTERM
// (the caller shuts the plugin down and exits 130/143). A plugin that fails to start is reported
// here and on the page, and the page's Restart tries again: the inspector keeps serving.
//
// Loaded only with --ui, from dist/inspector/ (outside the executa-dev bundle, so one-shot runs
// never parse Hono): objects of the bundle reach it as values, never through `instanceof`.
import type { LaunchSpec } from "@anna-ai/executa-host";
import { EXIT_USAGE, ExitError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { openBrowser } from "../dev/open-browser.js";
import { bannerLines } from "../executa-dev/dev-repl.js";
import type { DevRouter } from "../executa-dev/services.js";
import type { DevSession } from "../executa-dev/session.js";
import type { TextRedactor } from "./inspector-log.js";
import { InspectorListenError, startInspectorServer } from "./server.js";

export interface InspectorRunOptions {
  session: DevSession;
  launch: LaunchSpec;
  router: Pick<DevRouter, "summary" | "hints" | "notGranted" | "storage" | "switch">;
  redactor: TextRedactor;
  port: number;
  /** `--open`: the page in $BROWSER or the platform's opener. */
  open: boolean;
  /** Aborted by SIGINT/SIGTERM: the inspector stops. */
  interrupt: AbortSignal;
  /** The plugin's start was tried: its stderr may flow to the terminal from now on. */
  onStarted(): void;
}

export async function runInspector(io: CliIo, options: InspectorRunOptions): Promise<number> {
  const { session, launch } = options;
  const s = io.style;
  const out = (text: string) => io.stdout.write(text + "\n");
  let server;
  try {
    server = await startInspectorServer({
      session,
      redactor: options.redactor,
      launch,
      router: options.router,
      port: options.port,
    });
  } catch (error) {
    if (error instanceof InspectorListenError) {
      throw new ExitError(EXIT_USAGE, error.message, { cause: error });
    }
    throw error;
  }
  try {
    for (const line of bannerLines(launch, options.router, s)) out(line);
    out(`  ${s.dim("inspector")} ${s.cyan(server.url)}`);
    out(s.dim("The URL carries this run's token; Ctrl-C stops the plugin and the inspector."));
    if (options.open) {
      openBrowser(server.url, io.env, (message) => io.stderr.write(`${message}\n`));
    }
    const startError = await server.describe();
    options.onStarted();
    const proc = session.process;
    for (const line of session.stderrTail()) {
      io.stderr.write(`${io.errStyle.dim("[plugin]")} ${options.redactor.text(line)}\n`);
    }
    if (startError === null) {
      out(
        `  ${s.dim("protocol")} ${proc.protocolVersion ?? "?"}  ${s.dim("tools")} ${(proc.manifest?.tools ?? []).map((t) => t.name).join(", ") || "(none)"}`,
      );
    } else {
      io.stderr.write(
        `${io.errStyle.red("error:")} ${launch.toolId} did not start: ${startError}; fix it and press Restart in the inspector\n`,
      );
    }
    if (!options.interrupt.aborted) {
      await new Promise<void>((resolve) =>
        options.interrupt.addEventListener("abort", () => resolve(), { once: true }),
      );
    }
    return 0;
  } finally {
    await server.close();
  }
}
