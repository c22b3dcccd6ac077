// `anna-app dev` and the files of a published app's `fixtures/`: an upstream recording replays
// through the harness's route, the banner counts recordings only (never the session's own) and
// names the mock-answer files and app data beside them; replaying one of those says what it is.
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { devBanner, formatBanner } from "../../src/dev/banner.js";
import { createStyle } from "../../src/cli/style.js";
import { CLI_VERSION } from "../../src/version.js";
import type { LiveReplayReport } from "../../src/dev/fixture-replay.js";
import type { DevServer } from "../../src/dev/dev-server.js";
import { editManifest } from "./edit-manifest.js";
import { scaffoldTestApp, startHarness } from "./helpers.js";

const RECORDINGS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../fixture/recordings",
);

async function replay(server: DevServer, file: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${server.url}dev/api/fixtures/replay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ file }),
  });
  return { status: res.status, body: await res.json() };
}

describe("anna-app dev: published fixtures folders", () => {
  it("replays an upstream recording, counts only recordings and names the other files", async () => {
    const app = await scaffoldTestApp();
    editManifest(app.dir, (m) => {
      m.dev.fixtures = ["fixtures/*.json*"];
    });
    mkdirSync(path.join(app.dir, "fixtures"), { recursive: true });
    for (const name of ["upstream-session.jsonl", "mock-answers.jsonl", "app-data.json"]) {
      copyFileSync(path.join(RECORDINGS, name), path.join(app.dir, "fixtures", name));
    }
    // Recording on: the session's own file lands in fixtures/ too, and is not counted.
    const server = await startHarness(app, { record: undefined });
    expect(path.dirname(server.recordPath ?? "")).toBe(path.join(app.dir, "fixtures"));

    const banner = await devBanner(server);
    expect(banner.fixtures.files).toEqual(["fixtures/upstream-session.jsonl"]);
    expect(banner.fixtures.other).toEqual([
      { file: "fixtures/app-data.json", kind: "app_data" },
      { file: "fixtures/mock-answers.jsonl", kind: "mock_answers" },
    ]);
    const text = formatBanner(banner, createStyle(false), app.dir);
    expect(text).toContain("Fixtures   1 recording in fixtures/*.json*");
    expect(text).toContain(
      "fixtures/mock-answers.jsonl: a mock-answer file ({ns, method, result} lines), not a recording, not counted",
    );

    const upstream = await replay(server, "fixtures/upstream-session.jsonl");
    expect(upstream.status).toBe(200);
    const report = upstream.body as LiveReplayReport;
    expect(report.calls.map((c) => `${c.ns}.${c.method}`)).toEqual([
      "window.hello",
      "storage.get",
      "tools.invoke",
      "fs.read",
      "storage.set",
    ]);
    // fs.read was refused when recorded and is refused now.
    expect(report.calls[3]).toMatchObject({
      recorded: { ok: false, code: "permission_denied" },
      replayed: { ok: false, code: "permission_denied" },
      verdict: "match",
    });

    // What this session writes is what the upstream reader looks for: a meta line with
    // harness_version, events named under `event`.
    const own = readFileSync(server.recordPath ?? "", "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(own[0]).toMatchObject({ kind: "meta", harness_version: CLI_VERSION });
    const events = own.filter((r) => r.kind === "event");
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(typeof event.event).toBe("string");

    const mocks = await replay(server, "fixtures/mock-answers.jsonl");
    expect(mocks).toMatchObject({
      status: 422,
      body: {
        error: {
          code: "invalid_recording",
          message:
            "fixtures/mock-answers.jsonl is a mock-answer file ({ns, method, result} lines), not a recording",
        },
      },
    });
  });
});
