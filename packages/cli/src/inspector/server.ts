// The inspector's HTTP server: one Hono app on 127.0.0.1 over the DevSession `executa dev`
// already runs. A request meets, in order: the harness's Host guard (DNS rebinding), the token
// entry (`/?token=` sets the cookie and drops the token from the URL), the token guard, then for
// `/api/*` the harness's Origin guard and the JSON-only POST guard. Every answer carries a CSP
// that allows the page's own files only.
import { randomBytes, randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createAdaptorServer, type HttpBindings } from "@hono/node-server";
import { Hono } from "hono";
import {
  HttpError,
  SseStreams,
  errorAnswer,
  jsonResponse,
  notFoundAnswer,
  readJsonBody,
} from "@anna-ai/app-core/http";
import type { LaunchSpec } from "@anna-ai/executa-host";
import { NULL_LOGGER, type Logger } from "@anna-ai/jsonrpc";
import { allowedHosts, hostGuard } from "../dev/guard/host-guard.js";
import { originGuard } from "../dev/routes/origin-guard.js";
import type { DevRouter } from "../executa-dev/services.js";
import type { DevSession } from "../executa-dev/session.js";
import { toolViews, type ToolView } from "./form-fields.js";
import { cookieName, isAuthorized, jsonPostGuard, sameToken, tokenGuard } from "./guards.js";
import { InspectorLog, type TextRedactor } from "./inspector-log.js";
import { inspectorAsset, inspectorHtml } from "./page.js";
import { mountStorageRoutes } from "./storage-routes.js";
import { saveTestCase } from "./test-cases.js";
import { saveMock } from "./saved-mocks.js";
import {
  SWITCHABLE_FAMILIES,
  SERVICE_SWITCH_ERROR,
  type ServiceChoice,
} from "../executa-dev/service-switch.js";

export const INSPECTOR_HOST = "127.0.0.1";
/** Invokes waiting for their answer at once, each cancellable by the id the page gave it. */
const RUNNING_MAX = 32;
const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** One developer, a few tabs: the bound is on memory, not on people. */
const SSE_LIMITS = { clientBufferMaxBytes: 16 * 1024 * 1024, perRouteMax: 8, totalMax: 8 };

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy":
    "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
};

export interface InspectorServerOptions {
  session: DevSession;
  /** The session's redactor: what the trace, stderr and results hide. */
  redactor: TextRedactor;
  launch: LaunchSpec;
  router: Pick<DevRouter, "summary" | "hints" | "notGranted" | "storage" | "switch">;
  /** 0 picks a free port. */
  port: number;
  logger?: Logger;
}

export interface InspectorServer {
  /** The URL to open once: it carries the token. */
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  readonly log: InspectorLog;
  /** Starts the plugin if needed and refreshes the tools the page shows; why it failed, or null. */
  describe(): Promise<string | null>;
  close(): Promise<void>;
}

type Env = { Bindings: HttpBindings };

export class InspectorListenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InspectorListenError";
  }
}

export async function startInspectorServer(
  options: InspectorServerOptions,
): Promise<InspectorServer> {
  const { session, redactor, launch } = options;
  const logger = options.logger ?? NULL_LOGGER;
  const token = randomBytes(24).toString("base64url");
  const streams = new SseStreams(logger, SSE_LIMITS);
  const send = (event: string, data: unknown) =>
    streams.broadcast(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const log = new InspectorLog(session, redactor, send);
  let port = 0;
  let tools: ToolView[] | null = null;
  let startError: string | null = null;

  const describe = async () => {
    try {
      tools = toolViews(await session.describe());
      startError = null;
    } catch (error) {
      startError = redactor.text(startFailure(session, error));
    }
    // The declared credentials come with the manifest, so their panel follows the tools.
    send("tools", { tools, start_error: startError, credentials: session.credentialSources() });
    return startError;
  };

  const state = () => ({
    tool_id: launch.toolId,
    source: launch.source,
    dir: launch.dir,
    command: launch.command,
    services: options.router.summary,
    switchable: SWITCHABLE_FAMILIES,
    credentials: session.credentialSources(),
    storage: options.router.storage !== undefined,
    not_granted: options.router.notGranted,
    hints: options.router.hints,
    process: log.processView(),
    tools,
    start_error: startError,
    frames: log.frames,
    stderr: log.stderr,
    history: log.history.map((h) => log.historyView(h)),
  });

  const origin = () => `http://${INSPECTOR_HOST}:${port}`;
  const app = new Hono<Env>();
  app.onError((error, c) => withHeaders(errorAnswer(error, logger, c.req.url)));
  app.notFound((c) => withHeaders(notFoundAnswer(c.req.method, c.req.url)));
  app.use(hostGuard(() => allowedHosts(port)));

  // The entry: the token from the terminal becomes the cookie, and leaves the address bar (and
  // with it the history, screenshots and the Referer of anything the page links to).
  app.get("/", (c, next) => {
    const given = c.req.query("token");
    if (given === undefined) return next();
    if (!sameToken(given, token)) {
      throw new HttpError(
        "invalid_token",
        "this is not the token of this inspector run; open the URL anna-app executa dev --ui printed last",
      );
    }
    return withHeaders(
      new Response(null, {
        status: 303,
        headers: {
          Location: "/",
          "Set-Cookie": `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        },
      }),
    );
  });
  app.get("/", (c) => {
    // A page without the cookie says what to do instead of a bare JSON 401.
    if (!isAuthorized(c, token, cookieName(port))) {
      return withHeaders(
        new Response(
          `This inspector needs its token: open the URL \`anna-app executa dev --ui\` printed (${origin()}/?token=…).\n`,
          { status: 401, headers: { "Content-Type": "text/plain; charset=utf-8" } },
        ),
      );
    }
    return withHeaders(
      new Response(inspectorHtml(), { headers: { "Content-Type": "text/html; charset=utf-8" } }),
    );
  });
  app.use(tokenGuard(token, () => cookieName(port)));
  app.get("/inspector/*", (c) => {
    const asset = inspectorAsset(new URL(c.req.url).pathname);
    if (asset === undefined) return c.notFound();
    return withHeaders(
      new Response(asset.body, { headers: { "Content-Type": asset.contentType } }),
    );
  });

  app.use(
    "/api/*",
    originGuard(() => ({ origin: origin(), localhostOrigin: `http://localhost:${port}` })),
  );
  app.use("/api/*", jsonPostGuard);
  app.get("/api/state", () => json(state()));
  app.get("/api/events", (c) => {
    const client = streams.open("/api/events", c.env.outgoing);
    // The snapshot first, on the stream itself: nothing can happen between it and the live events.
    client.write(`event: snapshot\ndata: ${JSON.stringify(state())}\n\n`);
    return withHeaders(client.response);
  });
  app.post("/api/describe", async () => {
    await describe();
    return json({ tools, start_error: startError });
  });
  app.post("/api/health", async () => {
    const report = await session.health();
    return json(
      redactor.redact({
        status: report.status,
        state: report.state,
        detail: report.detail ?? null,
        raw: report.raw ?? null,
      }),
    );
  });
  app.post("/api/restart", async () => {
    try {
      await session.restart();
    } catch (error) {
      startError = redactor.text(startFailure(session, error));
    }
    await describe();
    return json({ process: log.processView(), tools, start_error: startError });
  });
  app.post("/api/invoke", async (c) => {
    const body = await readJsonBody(c.req.raw);
    const { tool, args } = invokeRequest(body);
    return json(await invoke(tool, args, runIdOf(body)));
  });
  app.post("/api/invoke/cancel", async (c) => {
    const run = runIdOf(await readJsonBody(c.req.raw));
    const controller = run === undefined ? undefined : running.get(run);
    if (controller === undefined) {
      throw new HttpError(
        "not_found",
        run === undefined
          ? 'POST /api/invoke/cancel takes {"run": "<the id the invoke was sent with>"}'
          : `no invoke ${JSON.stringify(run)} is running (it has answered, or was never sent)`,
      );
    }
    controller.abort(new Error("cancelled from the inspector"));
    return json({ cancelled: run });
  });
  app.post("/api/credentials", async (c) => {
    const { name, value } = credentialRequest(await readJsonBody(c.req.raw));
    session.setCredential(name, value);
    const credentials = session.credentialSources();
    send("credentials", { credentials });
    return json({ credentials });
  });
  app.post("/api/services", async (c) => {
    const { family, choice } = serviceRequest(await readJsonBody(c.req.raw));
    try {
      await options.router.switch.set(family, choice);
    } catch (error) {
      // By name: the inspector is bundled apart from executa dev (D-cli-xdev-32), so the class
      // the switch threw is not this module's copy.
      if (error instanceof Error && error.name === SERVICE_SWITCH_ERROR) {
        throw new HttpError("invalid_arg", redactor.text(error.message));
      }
      throw error;
    }
    send("services", { services: options.router.summary });
    return json({ services: options.router.summary });
  });
  app.post("/api/history/:id/rerun", async (c) => {
    const entry = historyEntry(c.req.param("id"));
    return json(await invoke(entry.tool, entry.arguments, runIdOf(await readJsonBody(c.req.raw))));
  });
  app.post("/api/history/:id/save", async (c) => {
    const entry = historyEntry(c.req.param("id"));
    const saved = await saveTestCase(launch.dir, entry, redactor);
    return json({ path: saved.path, case: saved.case });
  });

  app.post("/api/history/:id/save-mock", async (c) => {
    const entry = historyEntry(c.req.param("id"));
    try {
      const saved = await saveMock(launch.dir, entry, log.frames);
      return json(saved);
    } catch (error) {
      // By name, as for the service switch: one error class per bundle.
      if (error instanceof Error && error.name === "NothingToMock") {
        throw new HttpError("invalid_arg", error.message);
      }
      throw error;
    }
  });

  mountStorageRoutes(app, {
    storage: options.router.storage,
    toolId: launch.toolId,
    redactor,
    json,
  });

  const running = new Map<string, AbortController>();

  /** Invokes `tool`; with a `run` id, `POST /api/invoke/cancel` can stop it meanwhile. */
  async function invoke(tool: string, args: Record<string, unknown>, run?: string) {
    const controller = new AbortController();
    if (run !== undefined) {
      if (running.has(run)) {
        throw new HttpError(
          "invalid_arg",
          `an invoke with run id ${JSON.stringify(run)} is running; send a fresh id`,
        );
      }
      if (running.size >= RUNNING_MAX) {
        throw new HttpError(
          "rate_limited",
          `${RUNNING_MAX} invokes are waiting for their answer; cancel one or wait for it`,
        );
      }
      running.set(run, controller);
    }
    const invokeId = randomUUID();
    let outcome;
    try {
      outcome = await session.invoke(tool, args, controller.signal, invokeId);
    } catch (error) {
      // The plugin did not start or stopped for good: no answer to show, only why.
      throw new HttpError(
        "executa_unavailable",
        redactor.text(`${tool} was not invoked: ${startFailure(session, error)}`),
      );
    } finally {
      if (run !== undefined) running.delete(run);
    }
    return { entry: log.addInvoke(tool, args, outcome, invokeId) };
  }

  function historyEntry(id: string) {
    const entry = log.findInvoke(Number(id));
    if (entry === undefined) {
      throw new HttpError(
        "not_found",
        `no invoke ${JSON.stringify(id)} in the history (it keeps the last ones; see GET /api/state)`,
      );
    }
    return entry;
  }

  const server = createAdaptorServer({ fetch: app.fetch, hostname: INSPECTOR_HOST }) as Server;
  try {
    port = await listen(server, options.port);
  } catch (error) {
    log.close();
    throw error;
  }
  const url = `${origin()}/?token=${token}`;

  return {
    url,
    origin: origin(),
    token,
    log,
    describe,
    async close() {
      log.close();
      streams.endAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function withHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  return response;
}

function json(value: unknown): Response {
  return withHeaders(jsonResponse(200, value));
}

const CREDENTIAL_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** `{"name", "value"}`: a non-empty string sets it for the next invokes, null withdraws it. */
function credentialRequest(body: unknown): { name: string; value: string | null } {
  const b = body as { name?: unknown; value?: unknown } | null;
  if (
    b === null ||
    typeof b !== "object" ||
    typeof b.name !== "string" ||
    !CREDENTIAL_NAME.test(b.name)
  ) {
    throw new HttpError(
      "invalid_arg",
      'POST /api/credentials takes {"name": "NOTES_API_KEY", "value": "…"} (or "value": null to withdraw it); "name" must be letters, digits and _',
    );
  }
  if (b.value !== null && (typeof b.value !== "string" || b.value === "")) {
    throw new HttpError(
      "invalid_arg",
      `"value" must be a non-empty string, or null to withdraw ${b.name}`,
    );
  }
  return { name: b.name, value: b.value };
}

const SERVICE_BODY =
  'POST /api/services takes {"family": "sampling", "mode": "mock", "fixture": "<file.jsonl>"}, "mode": "real" (with "app_slug" and "account" if you like), or "mode": "off" or "initial"';

function serviceRequest(body: unknown): { family: string; choice: ServiceChoice } {
  const b = body as {
    family?: unknown;
    mode?: unknown;
    fixture?: unknown;
    account?: unknown;
    app_slug?: unknown;
  } | null;
  if (b === null || typeof b !== "object" || typeof b.family !== "string") {
    throw new HttpError("invalid_arg", `${SERVICE_BODY}; "family" is missing`);
  }
  if (b.mode === "off" || b.mode === "initial")
    return { family: b.family, choice: { mode: b.mode } };
  if (b.mode === "real") {
    const optional = (name: "account" | "app_slug") => {
      const v = b[name];
      if (v === undefined || v === null || v === "") return undefined;
      if (typeof v !== "string") {
        throw new HttpError("invalid_arg", `${SERVICE_BODY}; "${name}" must be a string`);
      }
      return v.trim();
    };
    const account = optional("account");
    const appSlug = optional("app_slug");
    return {
      family: b.family,
      choice: {
        mode: "real",
        ...(account === undefined ? {} : { account }),
        ...(appSlug === undefined ? {} : { appSlug }),
      },
    };
  }
  if (b.mode === "mock") {
    if (typeof b.fixture !== "string" || b.fixture.trim() === "") {
      throw new HttpError("invalid_arg", `${SERVICE_BODY}; "mode": "mock" needs "fixture"`);
    }
    return { family: b.family, choice: { mode: "mock", fixture: b.fixture.trim() } };
  }
  throw new HttpError(
    "invalid_arg",
    `${SERVICE_BODY}; "mode" ${JSON.stringify(b.mode)} is not one of them`,
  );
}

/** The optional `run` id of an invoke (or of a cancel): letters, digits, `-`, `_`. */
function runIdOf(body: unknown): string | undefined {
  const run = (body as { run?: unknown } | null)?.run;
  if (run === undefined) return undefined;
  if (typeof run !== "string" || !RUN_ID.test(run)) {
    throw new HttpError(
      "invalid_arg",
      `"run" must be 1 to 64 letters, digits, '-' or '_' (e.g. a random UUID), got ${JSON.stringify(run)?.slice(0, 80)}`,
    );
  }
  return run;
}

function invokeRequest(body: unknown): { tool: string; args: Record<string, unknown> } {
  const b = body as { tool?: unknown; arguments?: unknown } | null;
  if (b === null || typeof b !== "object" || typeof b.tool !== "string" || b.tool === "") {
    throw new HttpError(
      "invalid_arg",
      'POST /api/invoke takes {"tool": "<name>", "arguments": {…}}; "tool" is missing or not a string',
    );
  }
  const args = b.arguments ?? {};
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new HttpError(
      "invalid_arg",
      `"arguments" must be a JSON object of tool arguments, got ${Array.isArray(args) ? "an array" : args === null ? "null" : typeof args}`,
    );
  }
  return { tool: b.tool, args: args as Record<string, unknown> };
}

/** Why the plugin is not there, with its last stderr lines when the error does not quote them. */
function startFailure(session: DevSession, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const tail = session.stderrTail(10);
  return tail.length && !message.includes("stderr:")
    ? `${message}; last stderr: ${tail.join(" | ")}`
    : message;
}

async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new InspectorListenError(
          error.code === "EADDRINUSE"
            ? `--ui-port ${port} is in use; pass another port (0 picks a free one)`
            : `the inspector cannot listen on ${INSPECTOR_HOST}:${port}: ${error.message}`,
          { cause: error },
        ),
      ),
    );
    server.listen(port, INSPECTOR_HOST, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}
