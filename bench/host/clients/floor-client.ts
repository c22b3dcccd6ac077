// The floor's host side: spawn, write one line per request, scan stdout chunks for "\n", map ids
// to resolvers, answer the plugin's reverse requests at once. Nothing else: no line cap, no
// schema, no timeouts. This is what a host cannot beat, and what ours is compared with.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { once } from "node:events";
import { readFileSync, unlinkSync } from "node:fs";
import type { ChildEnv } from "../child-env.js";
import { pluginPath } from "../paths.js";
import type { BenchClient } from "./bench-client.js";

interface Frame {
  id?: string | number | null;
  /** T2: the real frame is in this file (only the SDK plugin sends these, above 512 KiB). */
  __file_transport?: string;
  method?: string;
  result?: unknown;
  error?: { code: number; message: string };
}

interface Waiter {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

const STORAGE_MISS = { value: null, exists: false, etag: null };

export class FloorClient implements BenchClient {
  readonly #child: ChildProcessByStdio<Writable, Readable, null>;
  readonly #waiters = new Map<number, Waiter>();
  #nextId = 0;
  #pending: Buffer[] = [];

  private constructor(child: ChildProcessByStdio<Writable, Readable, null>) {
    this.#child = child;
    child.stdout.on("data", (chunk: Buffer) => this.#onData(chunk));
    child.on("exit", () => {
      for (const waiter of this.#waiters.values()) waiter.reject(new Error("plugin exited"));
      this.#waiters.clear();
    });
  }

  static async launch(
    env: ChildEnv,
    file = "floor-plugin.mjs",
    detached = false,
  ): Promise<FloorClient> {
    const child = spawn(process.execPath, [pluginPath(file)], {
      env,
      detached,
      stdio: ["pipe", "pipe", "inherit"],
    });
    const client = new FloorClient(child);
    await client.request("initialize", {
      protocolVersion: "2.0",
      clientInfo: { name: "bench-floor", version: "0.1.0" },
      capabilities: { fileTransport: false },
    });
    await client.request("describe", undefined);
    return client;
  }

  get pid(): number {
    return this.#child.pid ?? -1;
  }

  request(method: string, params: unknown): Promise<unknown> {
    const id = this.#nextId++;
    const frame =
      params === undefined
        ? { jsonrpc: "2.0", id, method }
        : { jsonrpc: "2.0", id, method, params };
    return new Promise((resolve, reject) => {
      this.#waiters.set(id, { resolve, reject });
      this.#child.stdin.write(JSON.stringify(frame) + "\n");
    });
  }

  invoke(tool: string, args: Record<string, unknown>): Promise<unknown> {
    const invokeId = `inv-${this.#nextId}`;
    return this.request("invoke", {
      tool,
      name: tool,
      arguments: args,
      invoke_id: invokeId,
      context: { invoke_id: invokeId, plugin_name: "floor", deadline_ms: Date.now() + 60_000 },
    });
  }

  async echo(text: string): Promise<string> {
    const result = (await this.invoke("echo", { text })) as { data: { text: string } };
    return result.data.text;
  }

  async reverse(): Promise<number> {
    const result = (await this.invoke("reverse", {})) as { data: { reverse_ms: number } };
    return result.data.reverse_ms;
  }

  async flood(bytes: number): Promise<void> {
    await this.invoke("flood", { bytes });
  }

  async close(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = once(this.#child, "exit");
    this.#child.stdin.end();
    await exited;
  }

  #onData(chunk: Buffer): void {
    let start = 0;
    let newline: number;
    while ((newline = chunk.indexOf(10, start)) !== -1) {
      let line = chunk.subarray(start, newline);
      if (this.#pending.length > 0) {
        this.#pending.push(line);
        line = Buffer.concat(this.#pending);
        this.#pending = [];
      }
      start = newline + 1;
      if (line.length > 0) this.#onLine(line);
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
  }

  #onLine(line: Buffer): void {
    let frame: Frame;
    try {
      frame = JSON.parse(line.toString("utf8")) as Frame;
      if (frame.__file_transport !== undefined) {
        const path = frame.__file_transport;
        frame = JSON.parse(readFileSync(path, "utf8")) as Frame;
        unlinkSync(path);
      }
    } catch {
      return;
    }
    if (frame.method !== undefined) {
      // A reverse request: answer it at once, as an instant storage service would.
      this.#child.stdin.write(
        JSON.stringify({ jsonrpc: "2.0", id: frame.id, result: STORAGE_MISS }) + "\n",
      );
      return;
    }
    const waiter = this.#waiters.get(frame.id as number);
    if (waiter === undefined) return;
    this.#waiters.delete(frame.id as number);
    if (frame.error !== undefined)
      waiter.reject(new Error(`${frame.error.code} ${frame.error.message}`));
    else waiter.resolve(frame.result);
  }
}

export const launchFloor = (env: ChildEnv): Promise<BenchClient> => FloorClient.launch(env);

/** Diagnostic: the SDK plugin under the floor's host loop, to isolate the plugin-side cost. */
export const launchSdkOnFloor = (env: ChildEnv): Promise<BenchClient> =>
  FloorClient.launch(env, "sdk-plugin.mjs");

/**
 * Diagnostic: the floor with the plugin in its own process group and session (`detached: true`,
 * i.e. setsid), as our host spawns plugins for H4. Shows what the isolation alone costs.
 */
export const launchFloorSetsid = (env: ChildEnv): Promise<BenchClient> =>
  FloorClient.launch(env, "floor-plugin.mjs", true);
