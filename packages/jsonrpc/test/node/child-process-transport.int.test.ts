// The host side against a real plugin-side peer in a child process (test/fixtures/stdio-peer.mjs,
// built on dist: run `npx tsc -b` first).

import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { RpcPeer } from "../../src/rpc-peer.js";
import {
  ChildProcessTransport,
  STATIC_READ_BUFFER_BYTES,
} from "../../src/node/child-process-transport.js";
import type { ChildProcessTransportOptions } from "../../src/node/child-process-transport.js";
import { createFileSink } from "../../src/node/file-sink.js";
import { RecordingTransport } from "../../src/recording-transport.js";
import type { DroppedLine, FrameMeta } from "../../src/types.js";
import { memoryLogger, within } from "../helpers.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/stdio-peer.mjs", import.meta.url));
const STEP_TIMEOUT_MS = 5_000;

function spawnFixture(): ChildProcess {
  const child = spawn(process.execPath, [FIXTURE], { stdio: ["pipe", "pipe", "pipe"] });
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    }
  });
  return child;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

function hostPeer(child: ChildProcess, options: ChildProcessTransportOptions = {}) {
  const logger = memoryLogger();
  const dropped: DroppedLine[] = [];
  const transport = new ChildProcessTransport(child, { name: "fixture", logger, ...options });
  const peer = new RpcPeer(transport, {
    name: "fixture",
    logger,
    defaultTimeoutMs: STEP_TIMEOUT_MS,
  });
  const incoming: [string, FrameMeta][] = [];
  peer.observe((direction, message, meta) => {
    if (direction === "in")
      incoming.push(["method" in message ? message.method : "response", meta]);
  });
  onTestFinished(() => peer.close());
  return { peer, transport, logger, dropped, incoming };
}

describe("ChildProcessTransport with a real plugin process", () => {
  it("round-trips requests and serves reverse requests with string ids", async () => {
    const child = spawnFixture();
    const { peer } = hostPeer(child);
    const reverseIds: unknown[] = [];
    peer.onRequest("storage/get", (params, request) => {
      reverseIds.push(request.id);
      return { value: params, exists: true };
    });
    peer.start();
    expect(await peer.request("echo", { hello: "wörld" })).toEqual({ hello: "wörld" });
    expect(await peer.request("reverse", { method: "storage/get", params: { key: "k" } })).toEqual({
      value: { key: "k" },
      exists: true,
    });
    expect(reverseIds).toHaveLength(1);
    expect(reverseIds[0]).toMatch(/^[0-9a-f]{32}$/);
  });

  it("reads large replies and large reverse REQUESTS through file transport and deletes the files", async () => {
    const child = spawnFixture();
    const rawLines: string[] = [];
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.length < 4096) rawLines.push(...chunk.toString().split("\n").filter(Boolean));
    });
    const { peer, incoming } = hostPeer(child);
    peer.onRequest("storage/set", (params) => ({
      etag: "e1",
      size: (params as { value: string }).value.length,
    }));
    peer.start();

    const big = await peer.request<string>("big", { bytes: 600 * 1024 });
    expect(big).toHaveLength(600 * 1024);
    const replyMeta = incoming.at(-1)?.[1];
    expect(replyMeta?.fileTransport).toMatch(/executa-msg-[0-9a-f]+\.json$/);
    expect(replyMeta?.bytes).toBeLessThan(200);
    expect(existsSync(replyMeta?.fileTransport ?? "")).toBe(false);

    const value = "y".repeat(700 * 1024);
    const stored = await peer.request("reverse", {
      method: "storage/set",
      params: { key: "k", value },
    });
    expect(stored).toEqual({ etag: "e1", size: value.length });
    const requestFrame = incoming.find(([method]) => method === "storage/set");
    expect(requestFrame?.[1].fileTransport).toBeDefined();
    expect(existsSync(requestFrame?.[1].fileTransport ?? "")).toBe(false);
    // The pointer that carried the request has an id and no method (real-world-plugins.md).
    const pointer = rawLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((frame) => frame.__file_transport === requestFrame?.[1].fileTransport);
    expect(pointer).toEqual({
      jsonrpc: "2.0",
      id: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown,
      __file_transport: requestFrame?.[1].fileTransport,
    });
  });

  it("sends large frames to the plugin through file transport when asked to", async () => {
    const child = spawnFixture();
    const { peer, incoming } = hostPeer(child, {
      fileTransport: { resolveIncoming: true, writeAboveBytes: 512 * 1024 },
    });
    peer.start();
    const payload = { text: "ü".repeat(400 * 1024) };
    expect(await peer.request("echo", payload)).toEqual(payload);
    expect(incoming.at(-1)?.[1].fileTransport).toBeDefined();
  });

  it("logs and skips non-JSON lines without failing the call (H1)", async () => {
    const child = spawnFixture();
    const { peer, logger } = hostPeer(child);
    peer.start();
    expect(await peer.request("noisy")).toBe("quiet");
    const warning = logger.records.find((r) => r.message === "non-JSON line skipped");
    expect(warning?.fields).toMatchObject({ peer: "fixture", preview: "debug: this is not JSON" });
    expect(await peer.request("echo", 1)).toBe(1);
  });

  it("drops a 64 MiB line with bounded memory, fails its request, and reads the next line (H2)", async () => {
    const child = spawnFixture();
    const { peer, transport } = hostPeer(child);
    peer.start();
    const doomed = peer.request("hang", undefined, { id: 77, timeoutMs: 30_000 });
    const flood = peer.request("flood", { id: 77, bytes: 64 * 1024 * 1024 }, { timeoutMs: 30_000 });
    await expect(doomed).rejects.toMatchObject({ name: "RpcLocalError", code: "FRAME_TOO_LARGE" });
    expect(await flood).toBe("flooded");
    expect(await peer.request("echo", "still alive")).toBe("still alive");
    // stdout is read into one reused 64 KiB buffer; partial lines are copied out of it.
    expect(transport.peakBufferedBytes).toBeLessThanOrEqual(
      16 * 1024 * 1024 + STATIC_READ_BUFFER_BYTES,
    );
    expect(transport.peakBufferedBytes).toBeGreaterThan(15 * 1024 * 1024);
  }, 15_000);

  it("rejects what was pending when the plugin exits", async () => {
    const child = spawnFixture();
    const { peer } = hostPeer(child);
    peer.start();
    const pending = peer.request("hang").catch((e: unknown) => e);
    expect(await peer.request("exit")).toBe("bye");
    await exitOf(child);
    expect(await pending).toMatchObject({ name: "RpcLocalError", code: "CONNECTION_CLOSED" });
    await within(peer.closed, STEP_TIMEOUT_MS, "peer.closed");
    await expect(peer.request("echo", 1)).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
  });

  it("closes instead of crashing when writing to a plugin that closed its stdin (EPIPE)", async () => {
    // Closes its stdin, says so, and stays alive with stdout open.
    const child = spawn("/bin/sh", ["-c", "exec 0<&-; echo ready; exec sleep 30"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    onTestFinished(async () => {
      const exited = exitOf(child);
      child.kill("SIGKILL");
      await exited;
    });
    const ready = new Promise((resolve) => child.stdout.once("data", resolve));
    const { peer, logger } = hostPeer(child);
    peer.start();
    await within(ready, STEP_TIMEOUT_MS, "child ready");
    const pending: Promise<unknown>[] = [];
    // The first writes may still fit in the pipe buffer; keep writing until the error surfaces.
    while (!peer.isClosed && pending.length < 1000) {
      pending.push(peer.request("echo", "x".repeat(64 * 1024)).catch((e: unknown) => e));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(peer.isClosed).toBe(true);
    for (const result of await Promise.all(pending)) {
      expect(result).toMatchObject({ code: "CONNECTION_CLOSED" });
    }
    expect(
      logger.records.some(
        (r) => r.message === "write failed" && String(r.fields?.error).includes("EPIPE"),
      ),
    ).toBe(true);
  });

  it("lets the plugin side survive EPIPE on its own stdout and exit cleanly", async () => {
    const child = spawnFixture();
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const { peer } = hostPeer(child);
    peer.start();
    expect(await peer.request("echo", 1)).toBe(1);
    // Stop reading the plugin's stdout: its next write fails with EPIPE.
    child.stdout?.destroy();
    peer.notify("ping");
    void peer.request("echo", "x".repeat(256 * 1024), { timeoutMs: 60_000 }).catch(() => undefined);
    expect(await within(exitOf(child), STEP_TIMEOUT_MS, "plugin exit")).toBe(0);
    expect(stderr).toContain("fixture closed");
  });

  it("ends the plugin's stdin on close so it exits by itself, and the child still emits 'close'", async () => {
    const child = spawnFixture();
    const childClosed = new Promise((resolve) => child.once("close", resolve));
    const { peer } = hostPeer(child);
    peer.start();
    expect(await peer.request("echo", 1)).toBe(1);
    await peer.close();
    expect(await within(exitOf(child), STEP_TIMEOUT_MS, "plugin exit")).toBe(0);
    // The stdout handle moved to our reader; the ChildProcess must still see every stdio close.
    await within(childClosed, STEP_TIMEOUT_MS, "child 'close' event");
  });

  it("stops delivering when the caller destroys child.stdout", async () => {
    const child = spawnFixture();
    const { peer } = hostPeer(child);
    peer.start();
    expect(await peer.request("echo", 1)).toBe(1);
    const pending = peer.request("hang").catch((e: unknown) => e);
    child.stdout?.destroy();
    expect(await within(pending, STEP_TIMEOUT_MS, "pending request")).toMatchObject({
      code: "CONNECTION_CLOSED",
    });
  });

  it("records both directions to a JSONL file with secrets redacted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "jsonrpc-rec-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, "session.jsonl");
    const child = spawnFixture();
    const recording = new RecordingTransport(
      new ChildProcessTransport(child),
      createFileSink(file),
    );
    const peer = new RpcPeer(recording, { name: "fixture" });
    onTestFinished(() => peer.close());
    peer.start();
    const params = {
      tool: "t",
      arguments: {},
      context: {
        credentials: { MY_API_KEY: "sk-secret" },
        storage_token: "eyJ.secret",
        invoke_id: "i1",
      },
    };
    await peer.request("echo", params);
    await peer.close();
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.dir)).toEqual(["out", "in"]);
    const redacted = {
      tool: "t",
      arguments: {},
      context: {
        credentials: { MY_API_KEY: "[REDACTED]" },
        storage_token: "[REDACTED]",
        invoke_id: "i1",
      },
    };
    expect(lines[0]).toMatchObject({
      dir: "out",
      msg: { jsonrpc: "2.0", id: 1, method: "echo", params: redacted },
    });
    expect(lines[1]).toMatchObject({ dir: "in", msg: { jsonrpc: "2.0", id: 1, result: redacted } });
    for (const line of lines) {
      expect(typeof line.t).toBe("number");
      expect(new Date(line.ts as string).toISOString()).toBe(line.ts);
      expect(line.bytes).toBeGreaterThan(50);
    }
    expect(readFileSync(file, "utf8")).not.toContain('secret"');
    expect(readFileSync(file, "utf8")).not.toContain("sk-secret");
  });
});
