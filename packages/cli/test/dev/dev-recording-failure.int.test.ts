// The session recording under attack: its folder removed mid-session, a full disk, the size cap.
// Calls keep working; the developer panel (its stream and /dev/api/state), the log and the
// banner say that recording stopped and why; what was written stays a readable recording.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import type { Logger } from "@anna-ai/jsonrpc";
import { parseRecording } from "@anna-ai/app-schema";
import { describe, expect, it } from "vitest";
import { devBanner, formatBanner } from "../../src/dev/banner.js";
import type { DevServer } from "../../src/dev/dev-server.js";
import { createStyle } from "../../src/cli/style.js";
import { rpc, scaffoldTestApp, startHarness, tokenOf } from "./helpers.js";

/** A ceiling for a loaded machine, not a speed target. */
const STREAM_TIMEOUT_MS = 10_000;

interface LogEntry {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

function memoryLogger(): { logger: Logger; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at =
    (level: string) =>
    (message: string, fields?: Record<string, unknown>): void => {
      entries.push({ level, message, ...(fields === undefined ? {} : { fields }) });
    };
  return {
    entries,
    logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") },
  };
}

/** Opens the panel stream; `until(text)` resolves once the stream has carried `text`. */
async function panelStream(server: DevServer): Promise<{ until(text: string): Promise<string> }> {
  const abort = new AbortController();
  const res = await fetch(`${server.url}dev/stream`, { signal: abort.signal });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let seen = decoder.decode((await reader.read()).value);
  return {
    async until(text) {
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          (async () => {
            while (!seen.includes(text)) {
              const { value, done } = await reader.read();
              if (done) throw new Error(`panel stream ended before ${text}`);
              seen += decoder.decode(value);
            }
            return seen;
          })(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`no ${text} on the panel`)),
              STREAM_TIMEOUT_MS,
            );
          }),
        ]);
      } finally {
        clearTimeout(timer);
        abort.abort();
      }
    },
  };
}

async function state(server: DevServer): Promise<{ recording: Record<string, unknown> | null }> {
  const res = await fetch(`${server.url}dev/api/state`);
  return (await res.json()) as { recording: Record<string, unknown> | null };
}

describe("anna-app dev: a recording failure never breaks calls", () => {
  it("keeps answering when the recording's folder is removed, and says recording stopped", async () => {
    const app = await scaffoldTestApp();
    const folder = path.join(app.dir, "rec");
    const record = path.join(folder, "s.jsonl");
    const { logger, entries } = memoryLogger();
    const server = await startHarness(app, { record, logger });
    const token = tokenOf(server);
    expect((await rpc(server, token, "window", "hello")).body).toMatchObject({ ok: true });
    const panel = await panelStream(server);
    rmSync(folder, { recursive: true, force: true });

    const set = await rpc(server, token, "storage", "set", { key: "visits", value: 2 });
    expect(set.body).toMatchObject({ ok: true });
    const got = await rpc(server, token, "storage", "get", { key: "visits" });
    expect(got.body).toMatchObject({ ok: true, result: { value: 2 } });

    const stream = await panel.until("event: recording_stopped");
    expect(stream).toContain("its folder was removed (ENOENT)");
    expect((await state(server)).recording).toMatchObject({
      file: record,
      state: "stopped",
      reason: expect.stringContaining("its folder was removed (ENOENT)") as string,
    });
    expect(entries).toContainEqual({
      level: "warn",
      message: "recording stopped",
      fields: { file: record, reason: expect.stringContaining("ENOENT") as string },
    });
    // Stopped means stopped: the file is not recreated by a later call.
    await rpc(server, token, "storage", "get", { key: "visits" });
    expect(existsSync(folder)).toBe(false);
  });

  it("boots and answers with a recording on a full disk, and the banner says it stopped", async () => {
    const app = await scaffoldTestApp();
    const server = await startHarness(app, { record: "/dev/full" });
    const token = tokenOf(server);
    expect((await rpc(server, token, "storage", "set", { key: "k", value: 1 })).body).toMatchObject(
      { ok: true },
    );
    expect(server.recordingStatus()).toMatchObject({
      state: "stopped",
      reason: "cannot write /dev/full: the disk is full (ENOSPC)",
    });
    const banner = await devBanner(server);
    expect(formatBanner(banner, createStyle(false), app.dir)).toContain(
      "stopped: cannot write /dev/full: the disk is full (ENOSPC)",
    );
  });

  it("stops at the size cap with a warning, keeping a recording that reads without errors", async () => {
    const app = await scaffoldTestApp();
    mkdirSync(path.join(app.dir, "fixtures"), { recursive: true }); // the template may ship the folder
    const record = path.join(app.dir, "fixtures", "capped.jsonl");
    const maxBytes = 4096;
    const server = await startHarness(app, { record, recordMaxBytes: maxBytes });
    const token = tokenOf(server);
    for (let i = 0; i < 40; i++) {
      const answer = await rpc(server, token, "storage", "set", { key: `k${i}`, value: i });
      expect(answer.body).toMatchObject({ ok: true });
    }
    expect(server.recordingStatus()).toMatchObject({
      state: "stopped",
      reason: "the recording reached its 4096 bytes cap; later calls are not recorded",
    });
    expect(statSync(record).size).toBeLessThanOrEqual(maxBytes);
    const recording = parseRecording(readFileSync(record, "utf8"));
    expect(recording.issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(recording.calls.length).toBeGreaterThan(0);
    expect(recording.calls.length).toBeLessThan(40);
  });
});
