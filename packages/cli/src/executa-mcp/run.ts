// The implementation of `anna-app executa mcp` (flags in commands/executa-mcp.ts): start the
// plugin as `executa dev` does (same launch resolution, same offline services and flags), then
// serve it over MCP on stdio, or on Streamable HTTP with --http.
import { ExecutaHost, type RouterProgressEvent } from "@anna-ai/executa-host";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { ParsedArgs } from "../cli/args.js";
import { EXIT_OK, EXIT_RUNTIME, ExitError, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { resolveLaunch } from "../executa-dev/run.js";
import { buildDevRouter } from "../executa-dev/services.js";
import { DEV_USER_ID } from "../executa-dev/session.js";
import { clientSampling } from "./client-sampling.js";
import { createExecutaMcpServer, RunningCalls } from "./executa-mcp-server.js";
import { serveMcpHttp } from "./http-transport.js";

const NAME = "executa mcp";
/** Plugin stderr lines quoted when it fails to start. */
const START_STDERR_LINES = 10;

export async function runExecutaMcp(args: ParsedArgs, io: CliIo): Promise<number> {
  const flags = args.flags;
  if (args.positionals.length > 0) {
    throw usageError(`unexpected argument '${args.positionals[0]}'; use --dir <dir>`, NAME);
  }
  const port = parsePort(flags.http);
  const launch = await resolveLaunch(flags, io);
  const calls = new RunningCalls();
  const router = await buildDevRouter(flags, io, {
    toolId: launch.toolId,
    wrapSampling: (chosen) => clientSampling(calls, chosen),
  });
  router.onProgress((event) => forwardProgress(calls, event));
  const host = new ExecutaHost({ env: io.env, router: router.factory });
  const plugin = host.register(launch, { userId: DEV_USER_ID, env: io.env });
  // stdout may be the MCP stream: everything for people goes to stderr.
  const log = (line: string) => void io.stderr.write(`${line}\n`);
  let started = false;
  plugin.on("stderr", (event) => {
    if (started) log(`${io.errStyle.dim("[plugin]")} ${event.line}`);
  });
  try {
    let manifest;
    try {
      manifest = await plugin.describe();
    } catch (error) {
      const tail = plugin.stderrTail(START_STDERR_LINES).map((line) => `  ${line}`);
      throw new ExitError(
        EXIT_RUNTIME,
        [`${launch.toolId} did not start: ${(error as Error).message}`, ...tail].join("\n"),
        { cause: error },
      );
    }
    started = true;
    const newServer = () =>
      createExecutaMcpServer({
        plugin,
        calls,
        name: launch.toolId,
        version: manifest.version ?? "0.0.0",
        ...(typeof manifest.description === "string" ? { instructions: manifest.description } : {}),
      });
    const stop = new Promise<void>((resolve) => {
      process.once("SIGINT", () => resolve());
      process.once("SIGTERM", () => resolve());
    });
    if (port === undefined) {
      const server = newServer();
      const closed = new Promise<void>((resolve) => (server.onclose = resolve));
      await server.connect(new StdioServerTransport(io.stdin, io.stdout));
      // The client closing stdin ends the session (as MCP stdio servers do).
      io.stdin.once("end", () => void server.close());
      await Promise.race([closed, stop]);
      await server.close();
      return EXIT_OK;
    }
    const http = await serveMcpHttp(port, newServer, (error) =>
      log(`executa mcp: request failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    log(`executa mcp: serving ${launch.toolId} (${manifest.tools.length} tools) at ${http.url}`);
    await stop;
    await http.close();
    return EXIT_OK;
  } finally {
    await host.close();
    await router.close();
  }
}

function parsePort(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (typeof value !== "string" || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw usageError(
      `--http takes a port number 0–65535 (0 picks a free one), got ${JSON.stringify(value)}`,
      NAME,
    );
  }
  return port;
}

/** The plugin's executa/progress as MCP notifications/progress, when the client asked for it. */
function forwardProgress(calls: RunningCalls, event: RouterProgressEvent): void {
  const call = calls.get(event.invokeId);
  if (call === undefined || call.progressToken === undefined) return;
  call.progressCount += 1;
  const data =
    event.data !== null && typeof event.data === "object"
      ? (event.data as Record<string, unknown>)
      : {};
  const progress = typeof data.progress === "number" ? data.progress : call.progressCount;
  const params: Record<string, unknown> = { progressToken: call.progressToken, progress };
  if (typeof data.total === "number") params.total = data.total;
  params.message =
    typeof data.message === "string" ? data.message : `${event.type} ${JSON.stringify(event.data)}`;
  void call.extra
    .sendNotification({
      method: "notifications/progress",
      params: params as { progressToken: string | number; progress: number },
    })
    .catch(() => undefined);
}
