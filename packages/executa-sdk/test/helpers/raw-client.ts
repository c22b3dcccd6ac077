// A deliberately raw host for integration tests: spawns a plugin, writes NDJSON to its stdin and
// reads frames from its stdout without any of our own protocol code in between, so the tests
// check the wire, not our peer. Reverse requests are answered by registered handlers.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";

export type Frame = Record<string, unknown> & { __viaFile?: string };

export type ReverseHandler = (
  params: Record<string, unknown>,
  frame: Frame,
) => unknown | { error: { code: number; message: string; data?: unknown } };

/** Default wait for one frame; integration tests stay well under 2 s. */
const FRAME_TIMEOUT_MS = 3_000;

interface Waiter {
  predicate: (frame: Frame) => boolean;
  resolve: (frame: Frame) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

export class RawPlugin {
  readonly child: ChildProcessWithoutNullStreams;
  readonly frames: Frame[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr = "";
  /** Lines on stdout that were not JSON (should stay empty). */
  readonly garbage: string[] = [];
  private buffer = "";
  private waiters: Waiter[] = [];
  private readonly handlers = new Map<string, ReverseHandler>();
  private unclaimed: Frame[] = [];
  private nextId = 1000;

  constructor(
    entry: string,
    options: { env?: NodeJS.ProcessEnv; cwd?: string; args?: string[] } = {},
  ) {
    this.child = spawn(process.execPath, [entry, ...(options.args ?? [])], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stdout.setEncoding("utf8");
    this.child.stderr.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => this.onStdout(chunk));
    this.child.stderr.on("data", (chunk: string) => {
      this.stderr += chunk;
    });
    // A plugin that already exited must not turn a late write into an uncaught EPIPE.
    this.child.stdin.on("error", () => undefined);
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => {
        // Nothing more will arrive: fail the waiters now instead of at their timeouts. Frames
        // still buffered in the pipe are delivered first ("close" follows the last "data").
        const fail = (): void => this.failWaiters(`plugin exited (code ${code}, signal ${signal})`);
        if (this.child.stdout.closed) fail();
        else this.child.stdout.once("close", fail);
        resolve({ code, signal });
      });
    });
  }

  /** Answers reverse requests for `method` (return a value, or `{error}` for an error reply). */
  onRequest(method: string, handler: ReverseHandler): void {
    this.handlers.set(method, handler);
  }

  sendLine(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  send(message: Record<string, unknown>): void {
    this.sendLine(JSON.stringify(message));
  }

  /** Sends a request and resolves with the response frame for its id. */
  async request(
    method: string,
    params?: unknown,
    id: number | string = this.nextId++,
  ): Promise<Frame> {
    const message: Record<string, unknown> = { jsonrpc: "2.0", id, method };
    if (params !== undefined) message.params = params;
    const response = this.next((f) => f.id === id && f.method === undefined);
    this.send(message);
    return response;
  }

  /** Resolves with the first frame (seen or future) matching `predicate`. */
  next(
    predicate: (frame: Frame) => boolean = () => true,
    timeoutMs = FRAME_TIMEOUT_MS,
  ): Promise<Frame> {
    const index = this.unclaimed.findIndex(predicate);
    if (index >= 0) {
      const [frame] = this.unclaimed.splice(index, 1);
      return Promise.resolve(frame as Frame);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          reject(
            new Error(
              `no matching frame within ${timeoutMs} ms; stderr:\n${this.stderr.slice(-2000)}`,
            ),
          );
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  closeStdin(): void {
    this.child.stdin.end();
  }

  /** Kills the process if it still runs and waits for it. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
    await this.exited;
  }

  private failWaiters(reason: string): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error(`${reason}; stderr:\n${this.stderr.slice(-2000)}`));
    }
  }

  private onStdout(chunk: string): void {
    this.buffer += chunk;
    let newline = this.buffer.indexOf("\n");
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline).trim();
      this.buffer = this.buffer.slice(newline + 1);
      if (line !== "") this.onLine(line);
      newline = this.buffer.indexOf("\n");
    }
  }

  private onLine(line: string): void {
    let frame: Frame;
    try {
      frame = JSON.parse(line) as Frame;
    } catch {
      this.garbage.push(line);
      return;
    }
    const pointer = frame.__file_transport;
    if (typeof pointer === "string") {
      frame = { ...(JSON.parse(readFileSync(pointer, "utf8")) as Frame), __viaFile: pointer };
      rmSync(pointer, { force: true });
    }
    this.frames.push(frame);
    if (
      typeof frame.method === "string" &&
      frame.id !== undefined &&
      this.handlers.has(frame.method)
    ) {
      void this.answer(frame);
      return;
    }
    const waiter = this.waiters.find((w) => w.predicate(frame));
    if (waiter === undefined) {
      this.unclaimed.push(frame);
      return;
    }
    this.waiters = this.waiters.filter((w) => w !== waiter);
    clearTimeout(waiter.timer);
    waiter.resolve(frame);
  }

  private async answer(frame: Frame): Promise<void> {
    const handler = this.handlers.get(frame.method as string);
    if (handler === undefined) return;
    const params = (frame.params ?? {}) as Record<string, unknown>;
    let reply: Record<string, unknown>;
    try {
      const out = await handler(params, frame);
      reply =
        out !== null && typeof out === "object" && "error" in out
          ? { jsonrpc: "2.0", id: frame.id, error: (out as { error: unknown }).error }
          : { jsonrpc: "2.0", id: frame.id, result: out ?? null };
    } catch (error) {
      reply = { jsonrpc: "2.0", id: frame.id, error: { code: -32603, message: String(error) } };
    }
    this.send(reply);
  }
}
