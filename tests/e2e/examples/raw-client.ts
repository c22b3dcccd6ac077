// A deliberately small NDJSON client that plays the host against a real plugin process.
// It pins the wire exactly as the plugin writes it — ids with their JSON type, reverse-request
// metadata, `__file_transport` pointers — without going through the code under test
// (@anna-ai/jsonrpc, @anna-ai/executa-host).

import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync, realpathSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname } from "node:path";

export type JsonObject = Record<string, unknown>;
export type RpcId = string | number;

/** Long enough for a cold Python or Go start on a busy 2-core CI runner; waits end on the event. */
export const WAIT_TIMEOUT_MS = 5_000;
const EXIT_TIMEOUT_MS = 4_000;

export interface Frame {
  /** The message, after resolving `__file_transport`. */
  message: JsonObject;
  /** The line exactly as it appeared on stdout (the pointer line for file transport). */
  line: string;
  /** The pointer object and file path when the frame travelled through file transport. */
  pointer?: JsonObject;
  fileTransport?: string;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ReverseAnswer {
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** Decides the answer to a reverse request; `undefined` leaves the frame for `nextReverse`. */
export type ReverseHandler = (
  method: string,
  params: JsonObject,
  frame: Frame,
) => ReverseAnswer | undefined | Promise<ReverseAnswer | undefined>;

interface Waiter {
  accepts(frame: Frame): boolean;
  resolve(frame: Frame): void;
}

export function isRequest(frame: Frame): boolean {
  return typeof frame.message.method === "string" && "id" in frame.message;
}

export function isNotification(frame: Frame): boolean {
  return typeof frame.message.method === "string" && !("id" in frame.message);
}

export function isResponse(frame: Frame): boolean {
  return typeof frame.message.method !== "string";
}

/** JSON-RPC ids match only with the same type: 7 and "7" are different requests. */
export function sameId(a: unknown, b: unknown): boolean {
  return typeof a === typeof b && a === b;
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface SpawnOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

export class RawPluginClient {
  /** Every stdout frame, in wire order. */
  readonly frames: Frame[] = [];
  /** stdout lines that were not JSON objects. */
  readonly garbage: string[] = [];
  readonly stderrLines: string[] = [];
  readonly exited: Promise<ExitInfo>;

  private readonly child: ChildProcessWithoutNullStreams;
  private readonly unclaimed: Frame[] = [];
  private readonly waiters: Waiter[] = [];
  private readonly stderrWaiters: { pattern: RegExp; resolve(line: string): void }[] = [];
  private reverseHandler: ReverseHandler | undefined;
  private nextId = 1;
  private stdoutRest = "";
  private stderrRest = "";
  private exitInfo: ExitInfo | undefined;

  constructor(command: string, args: readonly string[], options: SpawnOptions) {
    this.child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: "pipe",
    });
    this.child.stdout.setEncoding("utf8");
    this.child.stderr.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => this.onStdout(chunk));
    this.child.stderr.on("data", (chunk: string) => this.onStderr(chunk));
    // A plugin that exits early must fail the test through its assertions, not an EPIPE crash.
    this.child.stdin.on("error", () => undefined);
    this.exited = new Promise<ExitInfo>((resolve) => {
      this.child.on("close", (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Write one frame as a JSON line. */
  send(message: JsonObject): void {
    this.sendLine(JSON.stringify(message));
  }

  sendLine(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** Send a request and resolve with its response (matched by id and id type). */
  async request(method: string, params?: JsonObject, id?: RpcId): Promise<Frame> {
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

  /** The response frame for `id`, whenever it comes. */
  responseTo(id: RpcId, what = `response to id ${JSON.stringify(id)}`): Promise<Frame> {
    return this.waitFor((f) => isResponse(f) && sameId(f.message.id, id), what);
  }

  /** Send `invoke` with a context (never null, H9) and resolve with the response. */
  invoke(
    tool: string,
    args: JsonObject = {},
    context: JsonObject = {},
    id?: RpcId,
  ): Promise<Frame> {
    const invokeId = typeof context.invoke_id === "string" ? context.invoke_id : undefined;
    return this.request(
      "invoke",
      { tool, name: tool, arguments: args, ...(invokeId ? { invoke_id: invokeId } : {}), context },
      id,
    );
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

  replyError(id: unknown, error: { code: number; message: string; data?: unknown }): void {
    this.send({ jsonrpc: "2.0", id, error });
  }

  /** Answer reverse requests automatically (a fake host); frames it declines stay queued. */
  answerReverse(handler: ReverseHandler): void {
    this.reverseHandler = handler;
    for (const frame of this.unclaimed.splice(0)) this.deliver(frame);
  }

  waitFor(
    accepts: (frame: Frame) => boolean,
    what: string,
    timeoutMs = WAIT_TIMEOUT_MS,
  ): Promise<Frame> {
    const index = this.unclaimed.findIndex(accepts);
    if (index >= 0) return Promise.resolve(this.unclaimed.splice(index, 1)[0] as Frame);
    let waiter: Waiter | undefined;
    const found = new Promise<Frame>((resolve) => {
      waiter = { accepts, resolve };
      this.waiters.push(waiter);
    });
    return withTimeout(found, timeoutMs, `${what}${this.describeState()}`).finally(() => {
      const at = this.waiters.indexOf(waiter as Waiter);
      if (at >= 0) this.waiters.splice(at, 1);
    });
  }

  waitForStderr(pattern: RegExp, timeoutMs = WAIT_TIMEOUT_MS): Promise<string> {
    const seen = this.stderrLines.find((line) => pattern.test(line));
    if (seen !== undefined) return Promise.resolve(seen);
    const found = new Promise<string>((resolve) => this.stderrWaiters.push({ pattern, resolve }));
    return withTimeout(
      found,
      timeoutMs,
      `stderr matching ${String(pattern)}${this.describeState()}`,
    );
  }

  /** Close stdin (the host's shutdown request) and resolve with how the plugin exited. */
  async close(): Promise<ExitInfo> {
    if (this.exitInfo) return this.exitInfo;
    this.child.stdin.end();
    try {
      return await withTimeout(this.exited, EXIT_TIMEOUT_MS, "exit after stdin EOF");
    } catch (error) {
      this.child.kill("SIGKILL");
      await this.exited;
      throw error;
    }
  }

  /** Last resort for `finally`: never leaves a process behind. */
  async dispose(): Promise<void> {
    if (this.exitInfo) return;
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), EXIT_TIMEOUT_MS);
    await this.exited;
    clearTimeout(timer);
  }

  private describeState(): string {
    const tail = this.stderrLines.slice(-5).join("\n  ");
    const exit = this.exitInfo ? ` (plugin exited: ${JSON.stringify(this.exitInfo)})` : "";
    return `${exit}; unclaimed frames: ${this.unclaimed.length}; stderr tail:\n  ${tail}`;
  }

  private onStdout(chunk: string): void {
    const lines = (this.stdoutRest + chunk).split("\n");
    this.stdoutRest = lines.pop() ?? "";
    for (const line of lines) if (line.trim() !== "") this.onLine(line);
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
      this.garbage.push(line);
      return;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      this.garbage.push(line);
      return;
    }
    const pointer = parsed as JsonObject;
    const path = pointer.__file_transport;
    const frame: Frame =
      typeof path === "string"
        ? { message: readFileTransport(path), line, pointer, fileTransport: path }
        : { message: pointer, line };
    this.frames.push(frame);
    this.deliver(frame);
  }

  private deliver(frame: Frame): void {
    const waiter = this.waiters.find((w) => w.accepts(frame));
    if (waiter) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(frame);
      return;
    }
    const handler = this.reverseHandler;
    if (handler && isRequest(frame)) {
      void this.answerWith(handler, frame);
      return;
    }
    this.unclaimed.push(frame);
  }

  private async answerWith(handler: ReverseHandler, frame: Frame): Promise<void> {
    const params = (frame.message.params ?? {}) as JsonObject;
    let answer: ReverseAnswer | undefined;
    try {
      answer = await handler(String(frame.message.method), params, frame);
    } catch (error) {
      answer = { error: { code: -32603, message: String(error) } };
    }
    if (answer === undefined) {
      this.unclaimed.push(frame);
      return;
    }
    if (answer.error) this.replyError(frame.message.id, answer.error);
    else this.reply(frame.message.id, answer.result ?? null);
  }
}

/** Read and delete a file-transport frame, refusing anything outside the OS temp dir (H3). */
function readFileTransport(path: string): JsonObject {
  const temp = realpathSync(tmpdir());
  if (realpathSync(dirname(path)) !== temp || !basename(path).startsWith("executa-")) {
    throw new Error(`file transport outside ${temp}: ${path}`);
  }
  try {
    return JSON.parse(readFileSync(path, "utf8")) as JsonObject;
  } finally {
    unlinkSync(path);
  }
}
