// __file_transport resolution (H3) through a StreamTransport over in-process streams.

import {
  chownSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { randomBytes } from "node:crypto";
import { describe, expect, it, onTestFinished } from "vitest";
import { StreamTransport } from "../../src/node/stream-transport.js";
import type { StreamTransportOptions } from "../../src/node/stream-transport.js";
import type { DroppedLine, FrameMeta } from "../../src/types.js";
import { waitFor } from "../helpers.js";

function tmpFile(content: string, dir = tmpdir()): string {
  const path = join(dir, `executa-msg-test-${randomBytes(8).toString("hex")}.json`);
  writeFileSync(path, content);
  onTestFinished(() => rmSync(path, { force: true }));
  return path;
}

function harness(options: StreamTransportOptions = { fileTransport: { resolveIncoming: true } }) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new StreamTransport(input, output, options);
  const messages: [Record<string, unknown>, FrameMeta][] = [];
  const dropped: DroppedLine[] = [];
  transport.start({
    onMessage: (m, meta) => messages.push([m, meta]),
    onDropped: (d) => dropped.push(d),
    onClose: () => undefined,
  });
  onTestFinished(() => transport.close());
  const feed = async (line: string): Promise<void> => {
    const before = messages.length + dropped.length;
    input.write(`${line}\n`);
    await waitFor(
      () => messages.length + dropped.length > before,
      1000,
      "a delivered or dropped frame",
    );
  };
  return { transport, output, messages, dropped, feed };
}

describe("file transport", () => {
  it("resolves a pointer that wraps a request (no method on the pointer line) and deletes the file", async () => {
    const { messages, feed } = harness();
    const inner = {
      jsonrpc: "2.0",
      id: "0123456789abcdef0123456789abcdef",
      method: "storage/set",
      params: { value: "v" },
    };
    const path = tmpFile(JSON.stringify(inner));
    const pointer = JSON.stringify({ jsonrpc: "2.0", id: inner.id, __file_transport: path });
    await feed(pointer);
    expect(messages).toEqual([[inner, { bytes: pointer.length + 1, fileTransport: path }]]);
    expect(existsSync(path)).toBe(false);
  });

  it("resolves a pointer that wraps a response", async () => {
    const { messages, feed } = harness();
    const path = tmpFile(JSON.stringify({ jsonrpc: "2.0", id: 4, result: { big: true } }));
    await feed(JSON.stringify({ jsonrpc: "2.0", id: 4, __file_transport: path }));
    expect(messages[0]?.[0]).toEqual({ jsonrpc: "2.0", id: 4, result: { big: true } });
  });

  it("refuses a file outside the temp directory and leaves it in place", async () => {
    const outside = mkdtempSync(join(process.cwd(), ".tmp-file-transport-"));
    onTestFinished(() => rmSync(outside, { recursive: true, force: true }));
    const path = tmpFile(JSON.stringify({ jsonrpc: "2.0", id: 9, result: 1 }), outside);
    const { messages, dropped, feed } = harness();
    await feed(JSON.stringify({ jsonrpc: "2.0", id: 9, __file_transport: path }));
    expect(messages).toEqual([]);
    expect(dropped).toEqual([
      {
        reason: "file_transport_failed",
        path,
        error: "file is not in the OS temp directory",
        idHint: 9,
      },
    ]);
    expect(existsSync(path)).toBe(true);
  });

  it("refuses symlinks, subdirectories, relative paths and non-files in the temp directory", async () => {
    const target = tmpFile(JSON.stringify({ jsonrpc: "2.0", id: 1, result: "secret" }));
    const link = join(tmpdir(), `executa-msg-link-${randomBytes(6).toString("hex")}.json`);
    symlinkSync(target, link);
    onTestFinished(() => rmSync(link, { force: true }));
    const sub = mkdtempSync(join(tmpdir(), "jsonrpc-sub-"));
    onTestFinished(() => rmSync(sub, { recursive: true, force: true }));
    const nested = tmpFile(JSON.stringify({ jsonrpc: "2.0", id: 2, result: 1 }), sub);
    const dir = join(tmpdir(), `executa-msg-dir-${randomBytes(6).toString("hex")}`);
    mkdirSync(dir);
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));

    const { messages, dropped, feed } = harness();
    await feed(JSON.stringify({ jsonrpc: "2.0", id: 1, __file_transport: link }));
    await feed(JSON.stringify({ jsonrpc: "2.0", id: 2, __file_transport: nested }));
    await feed(JSON.stringify({ jsonrpc: "2.0", id: 3, __file_transport: "executa-msg-x.json" }));
    await feed(JSON.stringify({ jsonrpc: "2.0", id: 4, __file_transport: dir }));
    await feed(
      JSON.stringify({
        jsonrpc: "2.0",
        id: "5",
        __file_transport: join(tmpdir(), "executa-msg-missing.json"),
      }),
    );
    expect(messages).toEqual([]);
    expect(
      dropped.map((d) => (d.reason === "file_transport_failed" ? [d.idHint, d.error] : d)),
    ).toEqual([
      [1, "refusing a symbolic link"],
      [2, "file is not in the OS temp directory"],
      [3, "__file_transport must be an absolute path"],
      [4, "not a regular file"],
      ["5", expect.stringContaining("cannot stat file") as unknown],
    ]);
    expect(existsSync(target) && existsSync(nested)).toBe(true);
  });

  it("refuses a hard link to another file, even one holding a frame, and deletes neither name", async () => {
    // Attack: a plugin links a file it may not delete (one of the user's, here a frame-shaped
    // one in a folder of its own) into the temp directory and points the host at the link.
    const home = mkdtempSync(join(tmpdir(), "jsonrpc-victim-"));
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    const victim = join(home, "notes.json");
    writeFileSync(victim, JSON.stringify({ jsonrpc: "2.0", id: 8, result: "precious" }));
    const link = join(tmpdir(), `executa-msg-hard-${randomBytes(6).toString("hex")}.json`);
    linkSync(victim, link);
    onTestFinished(() => rmSync(link, { force: true }));

    const { messages, dropped, feed } = harness();
    await feed(JSON.stringify({ jsonrpc: "2.0", id: 8, __file_transport: link }));
    expect(messages).toEqual([]);
    expect(dropped).toEqual([
      {
        reason: "file_transport_failed",
        path: link,
        error: "file has 2 links; a frame file has exactly one (refusing a hard link)",
        idHint: 8,
      },
    ]);
    expect(existsSync(victim) && existsSync(link)).toBe(true);
  });

  it.skipIf(process.getuid?.() !== 0)(
    "refuses a frame file another user owns, and leaves it in place (needs root to chown)",
    async () => {
      const path = tmpFile(JSON.stringify({ jsonrpc: "2.0", id: 9, result: "theirs" }));
      chownSync(path, 65534, 65534);
      const { messages, dropped, feed } = harness();
      await feed(JSON.stringify({ jsonrpc: "2.0", id: 9, __file_transport: path }));
      expect(messages).toEqual([]);
      expect(dropped).toEqual([
        {
          reason: "file_transport_failed",
          path,
          error: "file is owned by uid 65534, not by the uid the plugin runs as (0)",
          idHint: 9,
        },
      ]);
      expect(existsSync(path)).toBe(true);
    },
  );

  it.skipIf(process.getuid?.() !== 0)(
    "accepts a frame file owned by the uid a sandboxed plugin runs as (ownerUid)",
    async () => {
      const path = tmpFile(JSON.stringify({ jsonrpc: "2.0", id: 10, result: "sandboxed" }));
      chownSync(path, 65534, 65534);
      const { messages, feed } = harness({
        fileTransport: { resolveIncoming: true, ownerUid: 65534 },
      });
      await feed(JSON.stringify({ jsonrpc: "2.0", id: 10, __file_transport: path }));
      expect(messages.map(([message]) => message)).toEqual([
        { jsonrpc: "2.0", id: 10, result: "sandboxed" },
      ]);
      expect(existsSync(path)).toBe(false);
    },
  );

  it("reports a file that does not hold a JSON object, and leaves it in place", async () => {
    const { dropped, feed } = harness();
    const path = tmpFile("not json at all");
    await feed(JSON.stringify({ jsonrpc: "2.0", id: 7, __file_transport: path }));
    expect(dropped).toEqual([
      { reason: "file_transport_failed", path, error: "file does not hold JSON", idHint: 7 },
    ]);
    expect(existsSync(path)).toBe(true);
  });

  it("does not resolve pointers unless enabled", async () => {
    const { dropped, feed } = harness({});
    const path = tmpFile(JSON.stringify({ jsonrpc: "2.0", id: 1, result: 1 }));
    await feed(JSON.stringify({ jsonrpc: "2.0", id: 1, __file_transport: path }));
    expect(dropped[0]).toMatchObject({ reason: "file_transport_failed", idHint: 1 });
    expect(existsSync(path)).toBe(true);
  });

  it("writes frames above the threshold to a 0600 file and sends a pointer with the id", async () => {
    const { transport, output } = harness({
      fileTransport: { resolveIncoming: true, writeAboveBytes: 1024 },
    });
    const small = { jsonrpc: "2.0" as const, id: "a", result: "s" };
    const big = {
      jsonrpc: "2.0" as const,
      id: "0123456789abcdef0123456789abcdef",
      result: "é".repeat(600),
    };
    const smallBytes = transport.send(small);
    const pointerBytes = transport.send(big);
    transport.send({
      jsonrpc: "2.0",
      method: "executa/progress",
      params: { blob: "b".repeat(2000) },
    });
    // Frames after the first in a tick are batched until the tick ends.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const lines = (output.read() as Buffer).toString().trim().split("\n");
    expect(smallBytes).toBe(JSON.stringify(small).length + 1);
    expect(JSON.parse(lines[0] ?? "")).toEqual(small);
    const pointer = JSON.parse(lines[1] ?? "") as { id: string; __file_transport: string };
    expect(pointerBytes).toBe((lines[1]?.length ?? 0) + 1);
    expect(Object.keys(pointer)).toEqual(["jsonrpc", "id", "__file_transport"]);
    expect(pointer.id).toBe(big.id);
    onTestFinished(() => rmSync(pointer.__file_transport, { force: true }));
    expect(pointer.__file_transport.startsWith(join(tmpdir(), "executa-msg-"))).toBe(true);
    expect(statSync(pointer.__file_transport).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(pointer.__file_transport, "utf8"))).toEqual(big);
    const notification = JSON.parse(lines[2] ?? "") as { __file_transport: string };
    onTestFinished(() => rmSync(notification.__file_transport, { force: true }));
    expect(Object.keys(notification)).toEqual(["jsonrpc", "__file_transport"]);
  });
});
