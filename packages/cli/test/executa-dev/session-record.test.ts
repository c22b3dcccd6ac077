// The --record sink: RecordingTransport's line shape, secrets hidden by key and by value.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { Redactor } from "@anna-ai/jsonrpc";
import { SessionRecorder } from "../../src/executa-dev/session-record.js";

describe("SessionRecorder", () => {
  it("writes {t, ts, dir, bytes, msg, file?} lines with tokens, credentials and their values hidden", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "record-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "s.jsonl");
    const redactor = new Redactor(["sk_live_abcdef"]);
    const recorder = new SessionRecorder(file, redactor);
    recorder.write(
      "out",
      {
        jsonrpc: "2.0",
        id: 1,
        method: "invoke",
        params: { context: { credentials: { KEY: "sk_live_abcdef" }, storage_token: "eyJ.x.y" } },
      },
      { bytes: 120 },
    );
    redactor.add(["late-secret-1"]);
    recorder.write(
      "in",
      { jsonrpc: "2.0", id: 1, result: { echoed: "key=sk_live_abcdef and late-secret-1" } },
      { bytes: 80, fileTransport: "/tmp/executa-msg-1.json" },
    );
    recorder.close();
    const [first, second] = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(first).toMatchObject({
      dir: "out",
      bytes: 120,
      msg: {
        params: { context: { credentials: { KEY: "[REDACTED]" }, storage_token: "[REDACTED]" } },
      },
    });
    expect(typeof first?.t).toBe("number");
    expect(second).toMatchObject({
      dir: "in",
      file: "/tmp/executa-msg-1.json",
      msg: { result: { echoed: "key=[REDACTED] and [REDACTED]" } },
    });
  });

  it("does not hunt for values too short to be secrets", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "record-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "s.jsonl");
    const recorder = new SessionRecorder(file, new Redactor(["on", "secret-value"]));
    recorder.write(
      "in",
      { jsonrpc: "2.0", id: 1, result: { a: "on and on", b: "secret-value" } },
      { bytes: 1 },
    );
    recorder.close();
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({
      msg: { result: { a: "on and on", b: "[REDACTED]" } },
    });
  });

  it("redacts nested values, the longest secret first", () => {
    expect(new Redactor(["abcdef", "abcdef-yy"]).redact({ a: ["xx-abcdef-yy"] })).toEqual({
      a: ["xx-[REDACTED]"],
    });
  });
});
