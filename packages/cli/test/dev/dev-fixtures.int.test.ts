// `manifest.dev.fixtures` in the harness: where sessions are recorded, which recordings it lists
// (banner and /dev/api/fixtures), and a live replay of one into a window — matches, differences
// after a manifest change, and the refusals (a broken recording, a name it does not list).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { needs } from "../../../../tests/support/toolchains.js";
import { devBanner } from "../../src/dev/banner.js";
import { devFixtures } from "../../src/dev/dev-fixtures.js";
import { staticPrefix } from "../../src/validate/layers/dev-fixtures.js";
import type { LiveReplayReport } from "../../src/dev/fixture-replay.js";
import type { DevServer } from "../../src/dev/dev-server.js";
import { editManifest } from "./edit-manifest.js";
import { rpc, scaffoldTestApp, startHarness, tokenOf } from "./helpers.js";

async function postJson(
  server: DevServer,
  route: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${route.replace(/^\//, "")}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const python = needs("python3");

describe("manifest.dev.fixtures: where recordings go and which are listed", () => {
  it("records into the folder the first glob starts in, and lists what every glob matches", () => {
    expect(staticPrefix("fixtures/*.jsonl")).toBe("fixtures");
    expect(staticPrefix("recordings/**/*.jsonl")).toBe("recordings");
    expect(staticPrefix("a/b/session-*.jsonl")).toBe("a/b");
    expect(staticPrefix("*.jsonl")).toBe(".");
    expect(staticPrefix("qa/2026-*/x.jsonl")).toBe("qa");
  });

  it("lists only matching files and resolves only listed names", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "anna-fixtures-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    for (const file of ["rec/a.jsonl", "rec/b.json", "rec/deep/c.jsonl", "qa/x/d.jsonl"]) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), "");
    }
    writeFileSync(path.join(dir, "manifest.json"), "{}");
    const fixtures = devFixtures(dir, ["rec/*.jsonl", "./qa/**/*.jsonl"]);
    expect(fixtures.recordDir).toBe(path.join(dir, "rec"));
    expect((await fixtures.list()).map((f) => f.file)).toEqual(["qa/x/d.jsonl", "rec/a.jsonl"]);
    expect(await fixtures.resolve("rec/a.jsonl")).toBe(path.join(dir, "rec/a.jsonl"));
    for (const name of ["rec/b.json", "manifest.json", "rec/../manifest.json", "/etc/passwd"]) {
      expect(await fixtures.resolve(name)).toBeUndefined();
    }
    expect(devFixtures(dir).recordDir).toBe(path.join(dir, "fixtures"));
  });
});

describe("anna-app dev: live replay of a recording", () => {
  it.skipIf(python.skip)(
    `records a session under the fixtures glob, lists it, and replays it into a window${python.reason}`,
    async () => {
      const app = await scaffoldTestApp();
      editManifest(app.dir, (m) => {
        m.dev.fixtures = ["recordings/*.jsonl"];
        m.ui.host_api.chat = ["write_message"];
      });
      const first = await startHarness(app, { record: undefined });
      expect(path.dirname(first.recordPath ?? "")).toBe(path.join(app.dir, "recordings"));
      const token = tokenOf(first);
      await rpc(first, token, "window", "hello", { client_info: { name: "t" } });
      await rpc(first, token, "storage", "get", { key: "visits" });
      await rpc(first, token, "storage", "set", { key: "visits", value: 5 });
      await rpc(first, token, "storage", "get", { key: "visits" });
      await rpc(first, token, "storage", "delete", { key: "visits" }); // not granted: denied
      const invoked = await rpc(first, token, "tools", "invoke", {
        tool_id: app.toolId,
        method: "hello",
        args: { name: "Ada" },
      });
      expect(invoked.body).toMatchObject({ ok: true });
      await first.close();
      const recorded = path
        .relative(app.dir, first.recordPath ?? "")
        .split(path.sep)
        .join("/");

      // Same manifest: every call answers as recorded.
      const second = await startHarness(app);
      const banner = await devBanner(second);
      expect(banner.fixtures).toMatchObject({ globs: ["recordings/*.jsonl"], files: [recorded] });
      const listed = (await (await fetch(`${second.url}dev/api/fixtures`)).json()) as {
        files: { file: string; bytes: number }[];
      };
      expect(listed.files.map((f) => f.file)).toEqual([recorded]);
      const before = second.panel.calls.length;
      const same = await postJson(second, "/dev/api/fixtures/replay", { file: recorded });
      expect(same.status).toBe(200);
      const report = same.body as unknown as LiveReplayReport;
      expect(report.calls.map((c) => `${c.ns}.${c.method}:${c.verdict}`)).toEqual([
        "window.hello:match",
        "storage.get:match",
        "storage.set:match",
        "storage.get:match",
        "storage.delete:match",
        "tools.invoke:match",
      ]);
      expect(report).toMatchObject({ matched: 6, differed: 0, skipped: 0 });
      // The replayed calls went through the harness's own path: they are in the panel.
      expect(second.panel.calls.slice(before).map((c) => `${c.id}:${c.outcome}`)).toEqual([
        "replay-1:allowed",
        "replay-2:allowed",
        "replay-3:allowed",
        "replay-4:allowed",
        "replay-5:denied",
        "replay-6:allowed",
      ]);
      await second.close();

      // A new seed and a revoked grant: the replay names what changed, call by call.
      editManifest(app.dir, (m) => {
        m.dev.seed_storage = { visits: 41 };
        m.ui.host_api.storage = ["get"];
      });
      const third = await startHarness(app);
      const changed = (await postJson(third, "/dev/api/fixtures/replay", { file: recorded }))
        .body as unknown as LiveReplayReport;
      expect(changed.calls.map((c) => [c.ns, c.method, c.verdict, c.differences])).toEqual([
        [
          "window",
          "hello",
          "differs",
          [
            "result.runtime_state.visits: 0 → 41",
            'result.capabilities.storage: ["get","set"] → ["get"]',
          ],
        ],
        ["storage", "get", "differs", ["result.value: 0 → 41"]],
        ["storage", "set", "differs", ["outcome: ok → permission_denied"]],
        ["storage", "get", "differs", ["result.value: 5 → 41"]],
        ["storage", "delete", "match", []],
        ["tools", "invoke", "match", []],
      ]);
      expect(changed).toMatchObject({ matched: 2, differed: 4 });
    },
  );

  it("refuses a broken recording before issuing any call, and a name it does not list", async () => {
    const app = await scaffoldTestApp();
    editManifest(app.dir, (m) => {
      m.dev.fixtures = ["fixtures/*.jsonl"];
    });
    mkdirSync(path.join(app.dir, "fixtures"), { recursive: true });
    writeFileSync(
      path.join(app.dir, "fixtures/broken.jsonl"),
      [
        '{"t":0,"kind":"meta","format":1,"started_at":"2026-11-30T07:00:00.000Z"}',
        '{"t":1,"kind":"req","id":"a","ns":"storage","method":"set","args":{"key":"visits","value":9}}',
        "{not json",
        '{"t":3,"kind":"res","id":"a","ns":"storage","method":"set","ok":true,"result":{}}',
      ].join("\n"),
    );
    writeFileSync(
      path.join(app.dir, "fixtures/plugin.jsonl"),
      '{"t":0,"ts":"2026-11-30T07:00:00.000Z","dir":"out","bytes":10,"msg":{"jsonrpc":"2.0","id":1,"method":"describe"}}\n',
    );
    const server = await startHarness(app);
    const token = tokenOf(server);

    const broken = await postJson(server, "/dev/api/fixtures/replay", {
      file: "fixtures/broken.jsonl",
    });
    expect(broken.status).toBe(422);
    expect(broken.body).toMatchObject({
      ok: false,
      error: { code: "invalid_recording", message: expect.stringContaining("fixture verify") },
      issues: [{ line: 3, severity: "error", message: expect.stringContaining("not valid JSON") }],
    });
    const frames = await postJson(server, "/dev/api/fixtures/replay", {
      file: "fixtures/plugin.jsonl",
    });
    expect(frames).toMatchObject({
      status: 422,
      body: {
        error: {
          code: "invalid_recording",
          message: expect.stringContaining("executa dev transcript"),
        },
      },
    });
    for (const file of [
      "manifest.json",
      "../manifest.json",
      "fixtures/../manifest.json",
      "/etc/passwd",
    ]) {
      const res = await postJson(server, "/dev/api/fixtures/replay", { file });
      expect({ file, status: res.status, code: (res.body.error as { code: string }).code }).toEqual(
        {
          file,
          status: 404,
          code: "not_found",
        },
      );
    }
    expect((await postJson(server, "/dev/api/fixtures/replay", { nope: 1 })).status).toBe(400);
    // Only the dashboard may ask: not the app's sandboxed iframe (origin null), not another site.
    for (const origin of ["null", "http://evil.example", `http://localhost:${server.port + 1}`]) {
      const res = await postJson(
        server,
        "/dev/api/fixtures/replay",
        { file: "fixtures/broken.jsonl" },
        { origin },
      );
      expect({ origin, status: res.status, body: res.body }).toMatchObject({
        origin,
        status: 403,
        body: { error: { code: "forbidden_origin" } },
      });
    }
    // Nothing was issued, the seed is intact, and the harness keeps answering.
    expect(server.panel.calls).toEqual([]);
    expect((await rpc(server, token, "storage", "get", { key: "visits" })).body).toMatchObject({
      ok: true,
      result: { value: 0 },
    });
  });
});
