// A deliberately raw host for tests: it writes NDJSON to a plugin's stdin and reads frames from
// its stdout with no JSON-RPC peer in between, so tests pin the wire exactly as the plugin writes
// it (ids with their JSON type, reverse-request metadata, `__file_transport` pointers, garbage
// lines). Starting and stopping the process is the host's own code (see start-plugin.ts).

import type { ChildProcessWithoutNullStreams } from "node:child_process";
import {
  DEFAULT_CLIENT_INFO,
  DEFAULT_INVOKE_TIMEOUT_MS,
  buildInvokeParams,
  initializeParams,
  pluginExitStatus,
  shutdownPluginProcess,
  signalGroup,
} from "@anna-ai/executa-host";
import { PROTOCOL_ERRORS } from "@anna-ai/app-schema";
import {
  isNotification,
  isRequest,
  isResponse,
  readFileTransport,
  sameId,
  type Frame,
  type JsonObject,
  type RpcId,
} from "./frame.js";
import type { MethodHandler, ReverseAnswer, ReverseHandler, RpcErrorObject } from "./reverse.js";
import { WAIT_TIMEOUT_MS, withTimeout } from "./wait.js";

/** How long `close()` waits for the exit after stdin EOF before it kills and fails: a bound for
 * the failure case only (a passing close ends on the exit), so generous for a loaded runner. */
export const EXIT_TIMEOUT_MS = 10_000;
/** `dispose()`: grace after stdin EOF, then after SIGTERM, before SIGKILL of the whole group. */
export const DISPOSE_STDIN_GRACE_MS = 2_000;
export const DISPOSE_TERM_GRACE_MS = 1_000;
const STDERR_TAIL_LINES = 5;
/** Non-frame stdout lines kept for messages; `garbageCount` counts them all (a flood stays small). */
export const MAX_KEPT_GARBAGE_LINES = 100;
/** The host's cap on one line from a plugin (H2); a longer line is dropped, not buffered. */
export const MAX_STDOUT_LINE_CHARS = 16 * 1024 * 1024;
/** Longer non-frame lines are kept cut to this many characters. */
export const MAX_KEPT_GARBAGE_CHARS = 1_000;

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface PluginClientOptions {
  /** `context.plugin_name` of the default invoke context. */
  pluginName?: string;
  /** The process group to signal on `dispose()` (the host starts plugins as group leaders). */
  processGroup?: number;
  /** Default for every wait (`request`, `waitFor`, …); default `WAIT_TIMEOUT_MS`. */
  timeoutMs?: number;
}

interface Waiter {
  accepts(frame: Frame): boolean;
  resolve(frame: Frame): void;
  reject(error: Error): void;
}

export class PluginClient {
  /** Every stdout frame, in wire order. */
  readonly frames: Frame[] = [];
  /**
   * stdout lines that were not JSON objects (a conforming plugin leaves this empty, H1): the first
   * MAX_KEPT_GARBAGE_LINES, each cut to MAX_KEPT_GARBAGE_CHARS; `garbageCount` has the total.
   */
  readonly garbage: string[] = [];
  garbageCount = 0;
  /** Frames this client could not resolve (a bad `__file_transport` pointer), with the reason. */
  readonly transportErrors: string[] = [];
  readonly stderrLines: string[] = [];
  readonly exited: Promise<ExitInfo>;

  private readonly unclaimed: Frame[] = [];
  private readonly waiters: Waiter[] = [];
  private readonly stderrWaiters: { pattern: RegExp; resolve(line: string): void }[] = [];
  private readonly methodHandlers = new Map<string, MethodHandler>();
  private reverseHandler: ReverseHandler | undefined;
  private readonly pluginName: string;
  private readonly processGroup: number | undefined;
  private readonly timeoutMs: number;
  private nextId = 1;
  private nextInvoke = 1;
  private stdoutRest = "";
  /** Inside a line past MAX_STDOUT_LINE_CHARS: drop until its newline. */
  private discardingLine = false;
  private stderrRest = "";
  private exitInfo: ExitInfo | undefined;
  private stdoutDone = false;

  constructor(
    readonly child: ChildProcessWithoutNullStreams,
    options: PluginClientOptions = {},
  ) {
    this.pluginName = options.pluginName ?? "plugin";
    this.processGroup = options.processGroup;
    this.timeoutMs = options.timeoutMs ?? WAIT_TIMEOUT_MS;
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => this.onStdout(chunk));
    child.stderr.on("data", (chunk: string) => this.onStderr(chunk));
    // A plugin that exits early must fail the test through its assertions, not an EPIPE crash.
    child.stdin.on("error", () => undefined);
    child.stdout.once("close", () => {
      this.stdoutDone = true;
      if (this.exitInfo) this.failWaiters();
    });
    this.exited = new Promise<ExitInfo>((resolve) => {
      const done = (code: number | null, signal: NodeJS.Signals | null): void => {
        if (this.exitInfo) return;
        this.exitInfo = { code, signal };
        // Nothing more will arrive once stdout has closed: fail waiters now, not at their timeout.
        if (this.stdoutDone) this.failWaiters();
        resolve(this.exitInfo);
      };
      // Under the supervisor the child is bubblewrap: report the plugin's own code or signal.
      child.once("close", (code, signal) => {
        const own = pluginExitStatus(child, code, signal);
        done(own.code, own.signal);
      });
      // A spawn failure (ENOENT) emits "error" and may never emit "close".
      child.once("error", (error) => {
        this.stderrLines.push(`spawn failed: ${error.message}`);
        this.stdoutDone = true;
        done(null, null);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Everything the plugin wrote on stderr so far. */
  get stderr(): string {
    const lines =
      this.stderrRest === "" ? this.stderrLines : [...this.stderrLines, this.stderrRest];
    return lines.join("\n");
  }

  /** Write one frame as a JSON line. */
  send(message: JsonObject): void {
    this.sendLine(JSON.stringify(message));
  }

  /** Write a raw line (malformed JSON, blank lines, …); the newline is added. */
  sendLine(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** Send a request and resolve with its response (matched by id and id type). */
  request(method: string, params?: unknown, id?: RpcId): Promise<Frame> {
    const requestId = id ?? this.nextId++;
    const message: JsonObject = { jsonrpc: "2.0", id: requestId, method };
    if (params !== undefined) message.params = params;
    const response = this.responseTo(
      requestId,
      `response to ${method} (id ${JSON.stringify(requestId)})`,
    );
    this.send(message);
    return response;
  }

  /** `initialize` with what the host offers (protocol 2.0, its capabilities) unless overridden. */
  initialize(
    params: JsonObject = initializeParams(DEFAULT_CLIENT_INFO),
    id?: RpcId,
  ): Promise<Frame> {
    return this.request("initialize", params, id);
  }

  describe(id?: RpcId): Promise<Frame> {
    return this.request("describe", undefined, id);
  }

  health(id?: RpcId): Promise<Frame> {
    return this.request("health", undefined, id);
  }

  /** The `shutdown` request only; `close()` then ends stdin and waits for the exit. */
  shutdown(id?: RpcId): Promise<Frame> {
    return this.request("shutdown", undefined, id);
  }

  /**
   * Send `invoke` as the host shapes it: `{tool, name, arguments, invoke_id, context}`, never
   * `null` (H9). Without `context` the host's own context is built (invoke id, plugin name,
   * deadline); a given `context` is sent exactly as it is, so tests can pin what a plugin reads.
   */
  invoke(tool: string, args: JsonObject = {}, context?: JsonObject, id?: RpcId): Promise<Frame> {
    if (context === undefined) {
      const params = buildInvokeParams({
        tool,
        args,
        invokeId: `test-invoke-${this.nextInvoke++}`,
        pluginName: this.pluginName,
        deadlineMs: Date.now() + DEFAULT_INVOKE_TIMEOUT_MS,
      });
      return this.request("invoke", params, id);
    }
    const invokeId = typeof context.invoke_id === "string" ? context.invoke_id : undefined;
    return this.request(
      "invoke",
      { tool, name: tool, arguments: args, ...(invokeId ? { invoke_id: invokeId } : {}), context },
      id,
    );
  }

  /** The response frame for `id`, whenever it comes. */
  responseTo(id: RpcId, what = `response to id ${JSON.stringify(id)}`): Promise<Frame> {
    return this.waitFor((f) => isResponse(f) && sameId(f.message.id, id), what);
  }

  /** The next reverse request from the plugin (optionally of one method) not yet answered. */
  nextReverse(method?: string): Promise<Frame> {
    return this.waitFor(
      (f) => isRequest(f) && (method === undefined || f.message.method === method),
      `reverse request ${method ?? "(any)"}`,
    );
  }

  nextNotification(method: string): Promise<Frame> {
    return this.waitFor(
      (f) => isNotification(f) && f.message.method === method,
      `notification ${method}`,
    );
  }

  reply(id: unknown, result: unknown): void {
    this.send({ jsonrpc: "2.0", id, result });
  }

  replyError(id: unknown, error: RpcErrorObject): void {
    this.send({ jsonrpc: "2.0", id, error });
  }

  /** Answer every reverse request of `method` (a fake host service). Checked before waiters. */
  onRequest(method: string, handler: MethodHandler): void {
    this.methodHandlers.set(method, handler);
    this.redeliver();
  }

  /** Answer reverse requests no waiter claimed; frames it declines stay queued. */
  answerReverse(handler: ReverseHandler): void {
    this.reverseHandler = handler;
    this.redeliver();
  }

  /** The first frame (already seen and unclaimed, or future) that `accepts`. */
  waitFor(
    accepts: (frame: Frame) => boolean,
    what: string,
    timeoutMs = this.timeoutMs,
  ): Promise<Frame> {
    const index = this.unclaimed.findIndex(accepts);
    if (index >= 0) return Promise.resolve(this.unclaimed.splice(index, 1)[0] as Frame);
    if (this.exitInfo && this.stdoutDone) {
      return Promise.reject(new Error(`plugin exited before ${what}${this.describeState()}`));
    }
    let waiter: Waiter | undefined;
    const found = new Promise<Frame>((resolve, reject) => {
      waiter = { accepts, resolve, reject: (error) => reject(error) };
      this.waiters.push(waiter);
    });
    return withTimeout(found, timeoutMs, `${what}${this.describeState()}`).finally(() => {
      const at = this.waiters.indexOf(waiter as Waiter);
      if (at >= 0) this.waiters.splice(at, 1);
    });
  }

  waitForStderr(pattern: RegExp, timeoutMs = this.timeoutMs): Promise<string> {
    const seen = this.stderrLines.find((line) => pattern.test(line));
    if (seen !== undefined) return Promise.resolve(seen);
    const found = new Promise<string>((resolve) => this.stderrWaiters.push({ pattern, resolve }));
    return withTimeout(
      found,
      timeoutMs,
      `stderr matching ${String(pattern)}${this.describeState()}`,
    );
  }

  /** End stdin (how the host asks a plugin to go) and resolve with how the plugin exited. */
  async close(timeoutMs = EXIT_TIMEOUT_MS): Promise<ExitInfo> {
    if (this.exitInfo) return this.exitInfo;
    this.child.stdin.end();
    try {
      return await withTimeout(this.exited, timeoutMs, "the plugin to exit after stdin EOF");
    } catch (error) {
      await this.dispose();
      throw error;
    }
  }

  /**
   * For `finally`/`onTestFinished`: the host's shutdown sequence (stdin EOF, SIGTERM, SIGKILL to
   * the whole process group, sweep of what the plugin left in it) with test-sized graces. Never
   * throws and never leaves a process behind.
   */
  /**
   * Send `signal` as the host does: to the plugin's whole process group, which reaches the plugin
   * under the supervisor too (bubblewrap, the child itself, ignores SIGTERM).
   */
  signal(signal: NodeJS.Signals): void {
    if (this.processGroup === undefined) this.child.kill(signal);
    else signalGroup(this.processGroup, signal);
  }

  async dispose(): Promise<void> {
    if (this.processGroup === undefined) {
      // Not a group leader (a child the caller spawned): only the process itself can be signalled.
      if (this.exitInfo) return;
      this.child.stdin.end();
      const timer = setTimeout(() => this.child.kill("SIGKILL"), DISPOSE_STDIN_GRACE_MS);
      await this.exited;
      clearTimeout(timer);
      return;
    }
    await shutdownPluginProcess(
      {
        pgid: this.processGroup,
        exited: this.exited,
        hasExited: () => this.exitInfo !== undefined,
        closeStdin: () => {
          this.child.stdin.end();
        },
      },
      { grace: { stdinGraceMs: DISPOSE_STDIN_GRACE_MS, termGraceMs: DISPOSE_TERM_GRACE_MS } },
    );
  }

  private describeState(): string {
    const tail = this.stderrLines.slice(-STDERR_TAIL_LINES).join("\n  ");
    const exit = this.exitInfo ? ` (plugin exited: ${JSON.stringify(this.exitInfo)})` : "";
    return `${exit}; unclaimed frames: ${this.unclaimed.length}; garbage lines: ${this.garbageCount}; stderr tail:\n  ${tail}`;
  }

  private failWaiters(): void {
    for (const waiter of this.waiters.splice(0)) {
      waiter.reject(new Error(`plugin exited before the awaited frame${this.describeState()}`));
    }
  }

  private onStdout(chunk: string): void {
    let text = chunk;
    if (this.discardingLine) {
      const end = text.indexOf("\n");
      if (end < 0) return;
      this.discardingLine = false;
      text = text.slice(end + 1);
    }
    const lines = (this.stdoutRest + text).split("\n");
    this.stdoutRest = lines.pop() ?? "";
    for (const line of lines) if (line.trim() !== "") this.onLine(line);
    if (this.stdoutRest.length > MAX_STDOUT_LINE_CHARS) {
      this.stdoutRest = "";
      this.discardingLine = true;
      this.transportErrors.push(
        `a stdout line over ${MAX_STDOUT_LINE_CHARS} characters was dropped; send large responses by file transport`,
      );
    }
  }

  private onStderr(chunk: string): void {
    const lines = (this.stderrRest + chunk).split("\n");
    this.stderrRest = lines.pop() ?? "";
    for (const line of lines) {
      this.stderrLines.push(line);
      for (const waiter of this.stderrWaiters.filter((w) => w.pattern.test(line))) {
        this.stderrWaiters.splice(this.stderrWaiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  }

  private onLine(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.keepGarbage(line);
      return;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      this.keepGarbage(line);
      return;
    }
    const pointer = parsed as JsonObject;
    const path = pointer.__file_transport;
    let frame: Frame;
    if (typeof path === "string") {
      try {
        frame = { message: readFileTransport(path), line, pointer, fileTransport: path };
      } catch (error) {
        this.transportErrors.push((error as Error).message);
        return;
      }
    } else {
      frame = { message: pointer, line };
    }
    this.frames.push(frame);
    this.deliver(frame);
  }

  private keepGarbage(line: string): void {
    this.garbageCount += 1;
    if (this.garbage.length < MAX_KEPT_GARBAGE_LINES) {
      this.garbage.push(
        line.length > MAX_KEPT_GARBAGE_CHARS ? line.slice(0, MAX_KEPT_GARBAGE_CHARS) : line,
      );
    }
  }

  private redeliver(): void {
    for (const frame of this.unclaimed.splice(0)) this.deliver(frame);
  }

  private deliver(frame: Frame): void {
    const method = frame.message.method;
    const handler = typeof method === "string" ? this.methodHandlers.get(method) : undefined;
    if (handler && isRequest(frame)) {
      void this.answerWith((params) => handler(params, frame), frame);
      return;
    }
    const waiter = this.waiters.find((w) => w.accepts(frame));
    if (waiter) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(frame);
      return;
    }
    const reverse = this.reverseHandler;
    if (reverse && isRequest(frame)) {
      void this.answerWith((params) => reverse(String(method), params, frame), frame);
      return;
    }
    this.unclaimed.push(frame);
  }

  private async answerWith(
    handler: (params: JsonObject) => ReverseAnswer | undefined | Promise<ReverseAnswer | undefined>,
    frame: Frame,
  ): Promise<void> {
    const params = (frame.message.params ?? {}) as JsonObject;
    let answer: ReverseAnswer | undefined;
    try {
      answer = await handler(params);
    } catch (error) {
      answer = { error: { code: PROTOCOL_ERRORS.INTERNAL_ERROR.code, message: String(error) } };
    }
    if (answer === undefined) {
      this.unclaimed.push(frame);
      return;
    }
    if (answer.error) this.replyError(frame.message.id, answer.error);
    else this.reply(frame.message.id, answer.result ?? null);
  }
}
