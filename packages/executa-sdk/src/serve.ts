// The process side: stdio transport with file transport above 512 KiB, console output moved to
// stderr, and the exit rules real plugins follow — exit 0 on stdin EOF (even with invokes
// pending), after answering `shutdown`, and on SIGTERM; always after stdout has drained.

import { Console } from "node:console";
import { stdioTransport } from "@anna-ai/jsonrpc/node";
import type { Plugin } from "./define-plugin.js";
import { setDefaultChannel } from "./invoke-binding.js";
import { StderrLogger } from "./logger.js";
import { createPluginRuntime, pluginLabel } from "./runtime.js";

/** Frames above this leave through `__file_transport` (H2, T2). */
export const FILE_TRANSPORT_ABOVE_BYTES = 512 * 1024;
/** Longest we wait for stdout to drain before exiting anyway. */
const EXIT_FLUSH_TIMEOUT_MS = 2_000;

export interface ServeOptions {
  /** SDK and protocol diagnostics; default JSON lines on stderr. */
  logger?: StderrLogger;
  /** Leave `console.log/info/debug` alone (they would corrupt the protocol stream). */
  keepConsole?: boolean;
}

const STDOUT_CONSOLE_METHODS = [
  "log",
  "info",
  "debug",
  "dir",
  "dirxml",
  "table",
  "group",
  "groupCollapsed",
  "groupEnd",
  "count",
  "countReset",
  "time",
  "timeEnd",
  "timeLog",
] as const;

/** stdout belongs to the protocol: every console method that prints there now prints to stderr. */
export function divertConsoleToStderr(): void {
  const stderrConsole = new Console({ stdout: process.stderr, stderr: process.stderr });
  const target = console as unknown as Record<string, unknown>;
  const source = stderrConsole as unknown as Record<string, (...args: unknown[]) => void>;
  for (const method of STDOUT_CONSOLE_METHODS) {
    const fn = source[method];
    if (typeof fn === "function") target[method] = fn.bind(stderrConsole);
  }
}

function flushStdout(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, EXIT_FLUSH_TIMEOUT_MS);
    timer.unref();
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    if (process.stdout.destroyed || process.stdout.writableEnded) done();
    else process.stdout.write("", done);
  });
}

let exiting = false;

async function exitAfterFlush(code: number): Promise<void> {
  if (exiting) return;
  exiting = true;
  await flushStdout();
  process.exit(code);
}

export async function serve(plugin: Plugin, options: ServeOptions = {}): Promise<void> {
  if (options.keepConsole !== true) divertConsoleToStderr();
  const manifest = plugin.describe();
  const logger = options.logger ?? new StderrLogger({ fields: { plugin: pluginLabel(manifest) } });
  const transport = stdioTransport({
    logger,
    name: "host",
    // Outgoing file transport is decided per frame by the runtime (the host may decline it).
    fileTransport: { resolveIncoming: true },
  });
  const runtime = createPluginRuntime(plugin, transport, {
    logger,
    onShutdown: () => void exitAfterFlush(0),
    fileTransportAboveBytes: FILE_TRANSPORT_ABOVE_BYTES,
  });
  setDefaultChannel(runtime.channel);
  // A host that closed our stderr must not turn the next log line into a crash (EPIPE).
  process.stderr.on("error", () => undefined);
  process.once("SIGTERM", () => {
    void runtime.close().finally(() => exitAfterFlush(0));
  });
  // A stray rejected promise in plugin code must not take down every other invoke.
  process.on("unhandledRejection", (reason) => {
    logger.error("unhandled rejection", { error: reason });
  });
  runtime.start();
  await runtime.closed;
  await exitAfterFlush(0);
}
