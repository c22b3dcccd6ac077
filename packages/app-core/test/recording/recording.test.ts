import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { createFileRecorder, createJsonlRecorder, parseRecording } from "../../src/index.js";
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

    const { records, issues } = parseRecording(readFileSync(path, "utf8"));
    expect(issues).toEqual([]);
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
    expect(records[1]).toMatchObject({ kind: "event", name: "open_view" });
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

  it("reads the guide's dir:out|in style and reports bad lines with their numbers", () => {
    const text = [
      '{"t": 0, "dir": "out", "ns": "window", "method": "hello", "args": {}, "result": {"ok": 1}}',
      '{"t": 12, "dir": "in", "name": "auth.refresh", "payload": {"token": "x"}}',
      "not json",
      '{"t": 5, "kind": "event", "name": "ping", "payload": {}}',
      '{"t": 6, "kind": "weird"}',
    ].join("\n");
    const { records, issues } = parseRecording(text);
    expect(records.map((r) => r.kind)).toEqual(["req", "res", "event", "event"]);
    expect(records[1]).toMatchObject({ ok: true, result: { ok: 1 } });
    expect(issues).toEqual([
      { line: 3, message: "not JSON" },
      { line: 4, message: "`t` goes backwards (5 < 12)" },
      { line: 5, message: expect.stringContaining("unknown record") },
    ]);
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
