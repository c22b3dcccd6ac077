// The dashboard's **Inspect** button on an executa (issue 16): the plugin inspector of
// `anna-app executa dev --ui` for one executa of the app, started on the first ask and kept
// until the harness stops, on a loopback port and with a token of its own (D-cli-dev-69).
//
// It runs a process of its own, with `executa dev`'s services on their defaults (memory storage,
// sampling off unless a saved account makes it real, …): what the developer invokes, edits or
// breaks there never touches the process the app's windows call, or that process's state. It is
// the same as `anna-app executa dev --dir <that executa> --ui` in a second terminal, one click away.
import { Writable } from "node:stream";
import type { LaunchSpec } from "@anna-ai/executa-host";
import { HttpError } from "@anna-ai/app-core/http";
import { type Logger, Redactor } from "@anna-ai/jsonrpc";
import type { CliIo } from "../cli/io.js";
import { createStyle } from "../cli/style.js";
import { buildDevRouter, type DevRouter } from "../executa-dev/services.js";
import { DevSession } from "../executa-dev/session.js";
import type { InspectorServer } from "../inspector/server.js";

export interface ExecutaInspectorLink {
  tool_id: string;
  /** Opens the inspector once: it carries the token (the page swaps it for a cookie). */
  url: string;
}

export interface ExecutaInspectors {
  /** The inspector of `toolId`, started if it is not running yet. */
  open(toolId: string): Promise<ExecutaInspectorLink>;
  /** Those started so far. */
  list(): ExecutaInspectorLink[];
  /** Stops every inspector, its plugin process and its services. */
  close(): Promise<void>;
}

export interface ExecutaInspectorsOptions {
  /** The app's executas, as the harness registered them (re-read: a restart may replace one). */
  specs(): readonly LaunchSpec[];
  /** The developer's environment (saved accounts, credentials named by the manifest, H10). */
  env: NodeJS.ProcessEnv;
  /** Where relative mock-answer paths typed on the inspector's Services panel start. */
  cwd: string;
  logger: Logger;
}

/** Lines `executa dev`'s services would print on the terminal go to the harness's log. */
function loggingIo(options: ExecutaInspectorsOptions, toolId: string): CliIo {
  const sink = (level: "info" | "warn") =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of String(chunk).split("\n")) {
          if (line.trim() !== "") options.logger[level](line, { inspector: toolId });
        }
        done();
      },
    });
  const plain = createStyle(false);
  return {
    stdin: process.stdin,
    stdout: sink("info"),
    stderr: sink("warn"),
    env: options.env,
    cwd: options.cwd,
    style: plain,
    errStyle: plain,
  };
}

interface Running {
  link: ExecutaInspectorLink;
  stop(): Promise<void>;
}

export function executaInspectors(options: ExecutaInspectorsOptions): ExecutaInspectors {
  const running = new Map<string, Promise<Running>>();
  let closed = false;

  const start = async (spec: LaunchSpec): Promise<Running> => {
    const io = loggingIo(options, spec.toolId);
    const router: DevRouter = await buildDevRouter({}, io, { toolId: spec.toolId });
    const redactor = new Redactor(router.secretValues);
    router.onSecrets((values) => redactor.add(values));
    const session = new DevSession(
      { spec, router: router.factory, env: options.env, credentials: {}, redactor },
      {},
    );
    let server: InspectorServer;
    try {
      // Loaded on the first Inspect only: a harness nobody inspects never parses it.
      const { startInspectorServer } = await import("../inspector/server.js");
      server = await startInspectorServer({
        session,
        redactor,
        launch: spec,
        router,
        port: 0,
        logger: options.logger,
      });
    } catch (error) {
      await session.close();
      await router.close();
      throw error;
    }
    // The page shows a start failure and offers Restart; the harness only logs it.
    void server.describe().then((failure) => {
      if (failure !== null) {
        options.logger.warn("inspected executa did not start", {
          tool_id: spec.toolId,
          error: failure,
        });
      }
    });
    options.logger.info("executa inspector listening", {
      tool_id: spec.toolId,
      url: server.origin,
    });
    return {
      link: { tool_id: spec.toolId, url: server.url },
      async stop() {
        try {
          await server.close();
        } finally {
          try {
            await session.close();
          } finally {
            await router.close();
          }
        }
      },
    };
  };

  const settled = new Map<string, ExecutaInspectorLink>();
  return {
    async open(toolId) {
      if (closed) throw new HttpError("executa_unavailable", "the harness is stopping");
      const existing = running.get(toolId);
      if (existing !== undefined) return (await existing).link;
      const specs = options.specs();
      const spec = specs.find((s) => s.toolId === toolId);
      if (spec === undefined) {
        const known = specs.map((s) => s.toolId);
        throw new HttpError(
          "not_found",
          `no executa ${JSON.stringify(toolId)} in this app; ${known.length === 0 ? "it has none" : `its executas are ${known.join(", ")}`}`,
        );
      }
      const starting = start(spec);
      running.set(toolId, starting);
      try {
        const { link } = await starting;
        settled.set(toolId, link);
        return link;
      } catch (error) {
        // A failed start is not kept: the next Inspect tries again.
        running.delete(toolId);
        throw error;
      }
    },
    list: () => [...settled.values()],
    async close() {
      closed = true;
      const all = [...running.values()];
      running.clear();
      settled.clear();
      await Promise.all(
        all.map(async (p) => {
          const r = await p.catch(() => undefined);
          await r?.stop();
        }),
      );
    },
  };
}
