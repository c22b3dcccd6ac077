import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { parseRecording } from "@anna-ai/app-schema";
import { createFileRecorder, createJsonlRecorder } from "../../src/index.js";
import { fakeClock, openDispatcher } from "../helpers.js";

describe("recordings", () => {
  it("record every call, answer and event of a session and parse back (A10)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "app-core-rec-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "session.jsonl");
    const clock = fakeClock();
    const recorder = createFileRecorder(path, { clock: clock.now, meta: { app_id: "app-1" } });
    const { dispatcher, token } = await openDispatcher(
      { storage: ["read"] },
      { clock: clock.now, recorder },
    );
    clock.advance(12);
    await dispatcher.call(token, "window", "set_title", { title: "Hi" });
    clock.advance(1500);
    await dispatcher.call(token, "storage", "set", { key: "k", value: 1 });

    const text = readFileSync(path, "utf8");
    // The shared reader (app-schema) finds nothing wrong; the lines are checked as written.
    expect(parseRecording(text).issues).toEqual([]);
    const records = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.map((r) => [r.kind, r.t])).toEqual([
      ["meta", 0],
      ["event", 0],
      ["req", 12],
      ["event", 12],
      ["res", 12],
      ["req", 1512],
      ["res", 1512],
    ]);
    expect(records[0]).toMatchObject({ kind: "meta", app_id: "app-1", format: 1 });
    // `event` is the key the upstream reader needs; `name` is what earlier readers of ours read.
    expect(records[1]).toMatchObject({ kind: "event", event: "open_view", name: "open_view" });
    expect(records[3]).toMatchObject({
      kind: "event",
      name: "title_changed",
      payload: { title: "Hi" },
    });
    expect(records[4]).toMatchObject({ kind: "res", ok: true, result: {}, method: "set_title" });
    expect(records[6]).toMatchObject({
      kind: "res",
      ok: false,
      ns: "storage",
      method: "set",
      error: { code: "permission_denied" },
    });
    // req/res pair up by id.
    expect(records[5]).toMatchObject({ kind: "req", args: { key: "k", value: 1 } });
    expect((records[5] as { id: string }).id).toBe((records[6] as { id: string }).id);
    expect(readFileSync(path, "utf8")).not.toContain(token);
  });

  it("never writes t backwards even if the clock does", () => {
    const lines: string[] = [];
    const clock = fakeClock();
    const recorder = createJsonlRecorder({ write: (l) => lines.push(l), clock: clock.now });
    clock.advance(10);
    recorder.event({ name: "ping", payload: {} });
    clock.advance(-5);
    recorder.event({ name: "ping", payload: {} });
    expect(lines.map((l) => (JSON.parse(l) as { t: number }).t)).toEqual([0, 10, 10]);
  });
});
