// --trace prints every frame in both directions on stderr with size and latency; --record writes
// the session as RecordingTransport JSONL with tokens and credentials redacted.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RecordedFrame } from "@anna-ai/jsonrpc";
import { afterAll, describe, expect, it } from "vitest";
import { example, jsonLine, runCli, needs } from "./helpers.js";

const python = needs("python3");
const KITCHEN = example("ts-kitchen-sink");
const STUDIO = example("py-studio");
const work = mkdtempSync(path.join(tmpdir(), "executa-dev-trace-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.concurrent("executa dev --trace and --record", () => {
  it.skipIf(python.skip)(
    `--trace shows every frame with direction, size and reply latency on stderr${python.reason}`,
    async () => {
      const r = await runCli([
        "executa",
        "dev",
        "--dir",
        STUDIO,
        "--invoke",
        "note_add",
        "--args",
        '{"notebook":"n","text":"x"}',
        "--json",
        "--trace",
      ]);
      expect(r.code).toBe(0);
      expect(jsonLine(r)).toMatchObject({ count: 1 });
      const lines = r.stderr.split("\n").filter((l) => l.startsWith("[trace]"));
      const methods = lines.map((l) => /"method":"([^"]+)"/.exec(l)?.[1]).filter(Boolean);
      expect(methods).toEqual(
        expect.arrayContaining(["initialize", "describe", "invoke", "storage/get", "storage/set"]),
      );
      expect(lines.some((l) => l.includes("host → plugin"))).toBe(true);
      expect(lines.some((l) => l.includes("plugin → host"))).toBe(true);
      // Every frame has a size; replies have the latency since their request.
      for (const l of lines) expect(l).toMatch(/ \d+(\.\d)?(B|KiB|MiB) /);
      const invokeReply = lines.find(
        (l) => l.includes("plugin → host") && l.includes('"data":{"notebook"'),
      );
      expect(invokeReply).toMatch(/ \d+\.\dms /);
      // Tokens never reach the terminal.
      expect(r.stderr).not.toMatch(/"storage_token":"ey/);
    },
  );

  it("--record writes RecordingTransport JSONL with secrets redacted", async () => {
    const file = path.join(work, "session.jsonl");
    const r = await runCli([
      "executa",
      "dev",
      "--dir",
      KITCHEN,
      "--invoke",
      "credentials_check",
      "--credential",
      "KITCHEN_TOKEN=kt_secret_value_4242",
      "--record",
      file,
      "--json",
    ]);
    expect(r.code).toBe(0);
    const text = readFileSync(file, "utf8");
    const frames = text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as RecordedFrame);
    expect(frames.length).toBeGreaterThanOrEqual(6);
    for (const f of frames) {
      expect(f.dir === "in" || f.dir === "out").toBe(true);
      expect(typeof f.t).toBe("number");
      expect(typeof f.bytes).toBe("number");
      expect(Number.isNaN(Date.parse(f.ts))).toBe(false);
    }
    const invoke = frames.find((f) => (f.msg as { method?: string }).method === "invoke");
    const context = (invoke?.msg as { params: { context: Record<string, unknown> } }).params
      .context;
    expect(context.credentials).toEqual({ KITCHEN_TOKEN: "[REDACTED]" });
    expect(context.sampling_token).toBe("[REDACTED]");
    expect(text).not.toContain("kt_secret_value_4242");
    // The plugin's own preview ends in the last 4 characters; the value itself never appears.
    expect(
      frames.some((f) => f.dir === "in" && JSON.stringify(f.msg).includes("from_context")),
    ).toBe(true);
  });

  it("--record hides an --account token wherever it appears, not only under a token key", async () => {
    const file = path.join(work, "account.jsonl");
    const token = "ya29.account-token-7777";
    const r = await runCli([
      "executa",
      "dev",
      "--dir",
      KITCHEN,
      "--account",
      `google=home,token=${token}`,
      "--invoke",
      "remember",
      "--args",
      JSON.stringify({ key: "k", value: token }),
      "--record",
      file,
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(file, "utf8");
    expect(text).toContain('"method":"storage/set"');
    expect(text).not.toContain(token);
  });

  it("--record in the REPL covers restarts and shutdown", async () => {
    const file = path.join(work, "repl.jsonl");
    const r = await runCli(["executa", "dev", "--dir", KITCHEN, "--record", file], {
      stdin: 'invoke remember {"key":"k","value":"v"}\nrestart\nquit\n',
    });
    expect(r.code).toBe(0);
    const methods = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as RecordedFrame).msg as { method?: string })
      .map((m) => m.method)
      .filter(Boolean);
    expect(methods.filter((m) => m === "initialize")).toHaveLength(2);
    expect(methods).toEqual(expect.arrayContaining(["storage/set", "storage/get", "shutdown"]));
  });

  it.skipIf(python.skip)(
    `--trace and --record show frames that travelled through __file_transport${python.reason}`,
    async () => {
      const file = path.join(work, "big.jsonl");
      const r = await runCli([
        "executa",
        "dev",
        "--dir",
        STUDIO,
        "--invoke",
        "big_result",
        "--args",
        '{"size_kib":700}',
        "--json",
        "--trace",
        "--record",
        file,
      ]);
      expect(r.code).toBe(0);
      expect(jsonLine(r)).toMatchObject({ bytes: 700 * 1024 });
      const line = r.stderr.split("\n").find((l) => l.includes(" via file "));
      expect(line).toMatch(
        /plugin → host \d+B [\d.]+ms via file \S+executa-msg-\S+\.json \(7\d\d\.\dKiB\)/,
      );
      const recorded = readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as RecordedFrame)
        .find((f) => f.file !== undefined);
      expect(recorded?.file).toMatch(/executa-msg-/);
      expect(recorded?.dir).toBe("in");
    },
  );
});
