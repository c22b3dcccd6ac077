// The inspector's HTTP surface against a real plugin process (examples/executas/ts-notes): the
// guards first (no token, a foreign Host, a foreign Origin, a non-JSON POST), then what the page
// relies on: the tools' forms, invokes with their answer and duration, the live frame stream,
// re-run, restart and saved test cases.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FIXTURES, example, runCli, tempDir } from "../executa-dev/helpers.js";
import { readEvents, startInspector, type RunningInspector } from "./helpers.js";

const NOTES_MAIN = path.join(example("ts-notes"), "dist/main.js");
const WAITS = fileURLToPath(new URL("fixtures/waits.mjs", import.meta.url));
const CREDS = fileURLToPath(new URL("fixtures/creds.mjs", import.meta.url));

/** ts-notes launched in `dir`, so saved test cases land in a temp folder, not in the repo. */
function notesIn(dir: string): string[] {
  return ["--spec", `tool_id=notes,type=node,command="node ${NOTES_MAIN}",dir=${dir}`];
}

const auth = (ui: RunningInspector) => ({ Authorization: `Bearer ${ui.token}` });

function post(ui: RunningInspector, route: string, body: unknown, headers = {}): Promise<Response> {
  return fetch(ui.base + route, {
    method: "POST",
    headers: { ...auth(ui), "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** fetch() will not send a foreign Host header; node:http will. */
function getWithHost(ui: RunningInspector, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${ui.base}/api/state`, { headers: { ...auth(ui), Host: host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("executa dev --ui: guards", () => {
  it("refuses every route without the token, a foreign Host, a foreign Origin and a text/plain POST", async () => {
    const ui = await startInspector(notesIn(tempDir()));
    for (const route of ["/", "/api/state", "/inspector/inspector.js", "/api/events"]) {
      const res = await fetch(ui.base + route);
      expect(res.status, route).toBe(401);
      await res.body?.cancel();
    }
    const noToken = await fetch(ui.base + "/api/invoke", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ tool: "echo", arguments: { text: "x" } }),
    });
    expect(noToken.status).toBe(401);
    expect(((await noToken.json()) as { error: { code: string } }).error.code).toBe(
      "invalid_token",
    );
    const wrong = await fetch(`${ui.base}/api/state`, {
      headers: { Authorization: "Bearer nope" },
    });
    expect(wrong.status).toBe(401);
    await wrong.body?.cancel();

    expect(await getWithHost(ui, `evil.example:${ui.port}`)).toBe(421);
    expect(await getWithHost(ui, `localhost:${ui.port}`)).toBe(200);

    const cross = await post(
      ui,
      "/api/invoke",
      { tool: "echo" },
      { Origin: "http://evil.example" },
    );
    expect(cross.status).toBe(403);
    expect(((await cross.json()) as { error: { code: string } }).error.code).toBe(
      "forbidden_origin",
    );

    const plain = await fetch(ui.base + "/api/invoke", {
      method: "POST",
      headers: { ...auth(ui), "Content-Type": "text/plain" },
      body: JSON.stringify({ tool: "echo", arguments: { text: "x" } }),
    });
    expect(plain.status).toBe(415);
    const form = await fetch(ui.base + "/api/restart", {
      method: "POST",
      headers: { ...auth(ui), "Content-Type": "application/x-www-form-urlencoded" },
      body: "a=b",
    });
    expect(form.status).toBe(415);
    await plain.body?.cancel();
    await form.body?.cancel();

    // None of them reached the plugin.
    const state = (await (await fetch(`${ui.base}/api/state`, { headers: auth(ui) })).json()) as {
      history: unknown[];
    };
    expect(state.history).toEqual([]);
  });

  it("trades the URL's token for an HttpOnly SameSite=Strict cookie and serves the page under a strict CSP", async () => {
    const ui = await startInspector(notesIn(tempDir()));
    const entry = await fetch(ui.url, { redirect: "manual" });
    expect(entry.status).toBe(303);
    expect(entry.headers.get("location")).toBe("/");
    const cookie = entry.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(new RegExp(`^anna_inspector_${ui.port}=${ui.token};`));
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");

    const page = await fetch(ui.base + "/", {
      headers: { Cookie: cookie.split(";")[0] as string },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    const html = await page.text();
    expect(html).toContain('src="/inspector/inspector.js"');
    expect(html).not.toMatch(/<script(?![^>]*src=)[^>]*>/);

    const bad = await fetch(`${ui.base}/?token=not-this-one`, { redirect: "manual" });
    expect(bad.status).toBe(401);
    await bad.body?.cancel();
  });
});

describe("executa dev --ui: the API", () => {
  it("lists the tools with forms from their parameters, invokes with the plugin's answer and streams the frames", async () => {
    const dir = tempDir();
    const ui = await startInspector(notesIn(dir));
    const state = (await (await fetch(`${ui.base}/api/state`, { headers: auth(ui) })).json()) as {
      tool_id: string;
      process: { state: string; pid: number };
      tools: { name: string; fields: Record<string, unknown>[] }[];
    };
    expect(state.tool_id).toBe("notes");
    expect(state.process.state).toBe("ready");
    expect(state.tools.map((t) => t.name)).toEqual([
      "add_note",
      "list_notes",
      "summarize_notes",
      "echo",
    ]);
    const addNote = state.tools.find((t) => t.name === "add_note");
    expect(addNote?.fields).toEqual([
      { name: "text", type: "string", required: true, description: "The note's text." },
      {
        name: "tags",
        type: "array",
        required: false,
        description: "Optional labels.",
        items: "string",
      },
    ]);
    const listNotes = state.tools.find((t) => t.name === "list_notes");
    expect(listNotes?.fields[1]).toMatchObject({
      name: "limit",
      type: "integer",
      default: 20,
      required: false,
    });

    const stream = await fetch(`${ui.base}/api/events`, { headers: auth(ui) });
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    const events = readEvents(
      stream,
      (_e, all) =>
        all.some((e) => e.event === "history") &&
        all.some((e) => e.event === "frame" && (e.data as { reverse: boolean }).reverse),
    );

    const res = await post(ui, "/api/invoke", {
      tool: "add_note",
      arguments: { text: "buy milk", tags: ["home"] },
    });
    expect(res.status).toBe(200);
    const { entry } = (await res.json()) as {
      entry: {
        id: number;
        duration_ms: number;
        outcome: { ok: boolean; data: { id: unknown; count: number } };
      };
    };
    expect(entry.outcome.ok).toBe(true);
    expect(entry.outcome.data.count).toBe(1);
    expect(entry.duration_ms).toBeGreaterThan(0);

    const seen = await events;
    expect(seen[0]?.event).toBe("snapshot");
    const frames = seen
      .filter((e) => e.event === "frame")
      .map((e) => e.data as Record<string, unknown>);
    const invoke = frames.find(
      (f) => f.direction === "out" && f.kind === "request" && f.method === "invoke",
    );
    expect(invoke, JSON.stringify(frames)).toBeDefined();
    expect((invoke?.message as { params: { tool: string } }).params.tool).toBe("add_note");
    expect(
      frames.find((f) => f.direction === "in" && f.kind === "response" && f.method === "invoke"),
    ).toMatchObject({
      latency_ms: expect.any(Number),
    });
    // The plugin's own storage call, as a frame of its own with its method and params.
    const reverse = frames.find((f) => f.reverse && f.kind === "request");
    expect(reverse?.direction).toBe("in");
    expect(String(reverse?.method)).toMatch(/^storage\//);
    expect(reverse?.message).toHaveProperty("params");

    // Re-run sends the same arguments again; the note count says it reached the plugin.
    const rerun = (await (await post(ui, `/api/history/${entry.id}/rerun`, {})).json()) as {
      entry: { id: number; arguments: unknown; outcome: { data: { count: number } } };
    };
    expect(rerun.entry.arguments).toEqual({ text: "buy milk", tags: ["home"] });
    expect(rerun.entry.outcome.data.count).toBe(2);

    const saved = (await (await post(ui, `/api/history/${entry.id}/save`, {})).json()) as {
      path: string;
    };
    expect(saved.path).toBe(path.join(dir, ".anna/inspector/cases/add_note-1.json"));
    const file = JSON.parse(readFileSync(saved.path, "utf8")) as Record<string, unknown>;
    expect(file).toMatchObject({
      tool: "add_note",
      arguments: { text: "buy milk", tags: ["home"] },
      expect: "accepted",
      recorded: { ok: true },
    });
    const again = (await (await post(ui, `/api/history/${entry.id}/save`, {})).json()) as {
      path: string;
    };
    expect(path.basename(again.path)).toBe("add_note-2.json");
    expect(existsSync(saved.path)).toBe(true);
  });

  it("answers bad invoke bodies with what is wrong, and restarts the plugin", async () => {
    const ui = await startInspector(notesIn(tempDir()));
    const noTool = await post(ui, "/api/invoke", { arguments: {} });
    expect(noTool.status).toBe(400);
    expect(((await noTool.json()) as { error: { message: string } }).error.message).toContain(
      '"tool"',
    );
    const listArgs = await post(ui, "/api/invoke", { tool: "echo", arguments: [1] });
    expect(listArgs.status).toBe(400);
    expect(((await listArgs.json()) as { error: { message: string } }).error.message).toContain(
      "an array",
    );
    const missing = await post(ui, "/api/history/99/rerun", {});
    expect(missing.status).toBe(404);
    await missing.body?.cancel();

    const before = (await (await fetch(`${ui.base}/api/state`, { headers: auth(ui) })).json()) as {
      process: { pid: number };
    };
    const restarted = (await (await post(ui, "/api/restart", {})).json()) as {
      process: { state: string; pid: number };
      tools: unknown[];
    };
    expect(restarted.process.state).toBe("ready");
    expect(restarted.process.pid).not.toBe(before.process.pid);
    expect(restarted.tools).toHaveLength(4);

    expect(await ui.stop()).toBe(143);
  });
});

const messageOf = (body: Record<string, unknown>) =>
  (body["error"] as { message?: string } | undefined)?.message ?? "";

describe("executa dev --ui: storage", () => {
  interface Answer {
    entry: { outcome: { ok: boolean; data: Record<string, unknown> } };
  }
  const invoke = async (ui: RunningInspector, tool: string, args: Record<string, unknown>) =>
    ((await (await post(ui, "/api/invoke", { tool, arguments: args })).json()) as Answer).entry
      .outcome;
  const storage = async (ui: RunningInspector, route: string, body: unknown) => {
    const res = await post(ui, `/api/storage/${route}`, body);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("shows the rows the plugin wrote, and what is edited or deleted there the plugin reads", async () => {
    const ui = await startInspector(notesIn(tempDir()));
    const added = await invoke(ui, "add_note", { text: "buy milk" });
    expect(added.ok).toBe(true);
    const id = added.data["id"] as string;

    // The plugin's default scope is tool: its note and its stats record are there, not in user.
    const tool = await storage(ui, "list", { scope: "tool" });
    expect(tool.status).toBe(200);
    const keys = (tool.body["items"] as { key: string }[]).map((i) => i.key).sort();
    expect(keys).toEqual(["meta/stats", `notes/${id}`]);
    const user = await storage(ui, "list", { scope: "user" });
    expect(user.body["items"]).toEqual([]);

    const note = await storage(ui, "get", { scope: "tool", key: `notes/${id}` });
    expect(note.body).toMatchObject({ exists: true, value: { id, text: "buy milk" } });

    // Edited on the page: the plugin reads the new text.
    const edited = { ...(note.body["value"] as object), text: "buy oat milk" };
    const saved = await storage(ui, "set", { scope: "tool", key: `notes/${id}`, value: edited });
    expect(saved.status).toBe(200);
    expect(saved.body["etag"]).not.toBe(note.body["etag"]);
    const listed = await invoke(ui, "list_notes", {});
    expect((listed.data["notes"] as { text: string }[]).map((n) => n.text)).toEqual([
      "buy oat milk",
    ]);

    // Deleted on the page: gone for the plugin too.
    const deleted = await storage(ui, "delete", { scope: "tool", key: `notes/${id}` });
    expect(deleted.body["deleted"]).toBe(true);
    expect((await invoke(ui, "list_notes", {})).data["notes"]).toEqual([]);

    // What is wrong with a request is said, and no request reaches another scope.
    const app = await storage(ui, "list", { scope: "app" });
    expect(app.status).toBe(400);
    expect(messageOf(app.body)).toContain('"scope" must be one of tool, user');
    const noKey = await storage(ui, "get", { scope: "tool" });
    expect(noKey.status).toBe(400);
    const noValue = await storage(ui, "set", { scope: "tool", key: "k" });
    expect(messageOf(noValue.body)).toContain('"value" is missing');
    const plain = await fetch(`${ui.base}/api/storage/list`, {
      method: "POST",
      headers: { ...auth(ui), "Content-Type": "text/plain" },
      body: "{}",
    });
    expect(plain.status).toBe(415);
    await plain.body?.cancel();
  });

  it("says how to turn storage on when the run has it off", async () => {
    const ui = await startInspector([...notesIn(tempDir()), "--storage", "off"]);
    const state = (await (await fetch(`${ui.base}/api/state`, { headers: auth(ui) })).json()) as {
      storage: boolean;
    };
    expect(state.storage).toBe(false);
    const list = await storage(ui, "list", { scope: "tool" });
    expect(list.status).toBeGreaterThanOrEqual(400);
    expect(messageOf(list.body)).toContain("--storage memory");
  });
});

describe("executa dev --ui: usage", () => {
  it("refuses --ui with a one-shot mode, its flags without --ui, a bad port and a port in use", async () => {
    const dir = example("ts-notes");
    const oneShot = await runCli(["executa", "dev", "--dir", dir, "--ui", "--invoke", "echo"]);
    expect(oneShot.code).toBe(2);
    expect(oneShot.stderr).toContain("--ui is a session of its own");
    const noUi = await runCli(["executa", "dev", "--dir", dir, "--ui-port", "0"]);
    expect(noUi.code).toBe(2);
    expect(noUi.stderr).toContain("--ui-port goes with --ui");
    const bad = await runCli(["executa", "dev", "--dir", dir, "--ui", "--ui-port", "http"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--ui-port takes a port number 0–65535 (0 picks a free one), got "http"',
    );

    const ui = await startInspector(notesIn(tempDir()));
    const taken = await runCli([
      "executa",
      "dev",
      "--dir",
      dir,
      "--ui",
      "--ui-port",
      String(ui.port),
    ]);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain(`--ui-port ${ui.port} is in use`);
  });

  it("cancels a running invoke by its run id: it answers 'was cancelled' and the plugin is told", async () => {
    const ui = await startInspector(["--spec", `tool_id=waits,type=node,command="node ${WAITS}"`]);
    const state = async () =>
      (await (await fetch(`${ui.base}/api/state`, { headers: auth(ui) })).json()) as {
        stderr: string[];
      };
    const waiting = post(ui, "/api/invoke", { tool: "wait", arguments: {}, run: "run-1" });
    await expect.poll(async () => (await state()).stderr).toContain("wait started");
    // The same run id twice is refused while the first runs; an unknown one has nothing to stop.
    const twice = await post(ui, "/api/invoke", { tool: "wait", arguments: {}, run: "run-1" });
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { error: { message: string } }).error.message).toContain(
      "send a fresh id",
    );
    const unknown = await post(ui, "/api/invoke/cancel", { run: "run-2" });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe(
      'no invoke "run-2" is running (it has answered, or was never sent)',
    );
    const badId = await post(ui, "/api/invoke/cancel", { run: "a b" });
    expect(badId.status).toBe(400);
    await badId.body?.cancel();

    const cancelled = await post(ui, "/api/invoke/cancel", { run: "run-1" });
    expect(await cancelled.json()).toEqual({ cancelled: "run-1" });
    const answer = (await (await waiting).json()) as {
      entry: { tool: string; outcome: { ok: boolean; error: { code: number; message: string } } };
    };
    expect(answer.entry.tool).toBe("wait");
    expect(answer.entry.outcome).toMatchObject({
      ok: false,
      error: { code: -32000, message: 'plugin "waits" tool wait was cancelled' },
    });
    await expect
      .poll(async () => (await state()).stderr)
      .toContain("wait cancelled: cancelled from the inspector");
    // Once it answered, its id is free and cancelling it again finds nothing.
    const late = await post(ui, "/api/invoke/cancel", { run: "run-1" });
    expect(late.status).toBe(404);
    await late.body?.cancel();

    // At most 32 invokes wait at once; the next one is refused until one answers.
    const held = Array.from({ length: 32 }, (_, i) =>
      post(ui, "/api/invoke", { tool: "wait", arguments: {}, run: `held-${i}` }),
    );
    await expect
      .poll(async () => (await state()).stderr.filter((l) => l === "wait started").length)
      .toBeGreaterThanOrEqual(33);
    const over = await post(ui, "/api/invoke", { tool: "wait", arguments: {}, run: "one-more" });
    expect(over.status).toBe(429);
    expect(((await over.json()) as { error: { message: string } }).error.message).toBe(
      "32 invokes are waiting for their answer; cancel one or wait for it",
    );
    for (let i = 0; i < 32; i++) await post(ui, "/api/invoke/cancel", { run: `held-${i}` });
    for (const answer of await Promise.all(held)) expect(answer.status).toBe(200);
  });

  it("switches sampling to a mock-answer file, off and back while the plugin runs", async () => {
    const ui = await startInspector(notesIn(tempDir()));
    const fixture = path.join(example("ts-notes"), "fixtures/sampling.jsonl");
    const invoke = async (tool: string, args: Record<string, unknown>) =>
      (
        (await (await post(ui, "/api/invoke", { tool, arguments: args })).json()) as {
          entry: { outcome: { ok: boolean; data?: { summary?: string }; error?: unknown } };
        }
      ).entry.outcome;
    const switchTo = (body: unknown) => post(ui, "/api/services", body);
    expect((await invoke("add_note", { text: "buy milk" })).ok).toBe(true);
    // As started (no --mock-sampling): sampling is off and the plugin's call is refused.
    const refused = await invoke("summarize_notes", {});
    expect(JSON.stringify(refused)).toContain("sampling");
    expect(refused.data?.summary).toBeUndefined();

    const mocked = await switchTo({ family: "sampling", mode: "mock", fixture });
    expect(mocked.status).toBe(200);
    expect(((await mocked.json()) as { services: Record<string, string> }).services.sampling).toBe(
      `mock (${fixture}, switched)`,
    );
    expect((await invoke("summarize_notes", {})).data?.summary).toBe(
      "You have some shopping to do: milk is on the list.",
    );
    const state = (await (await fetch(`${ui.base}/api/state`, { headers: auth(ui) })).json()) as {
      services: Record<string, string>;
      switchable: string[];
    };
    expect(state.services.sampling).toContain("switched");
    expect(state.switchable).toEqual(["sampling", "agent", "image", "upload", "embeddings", "web"]);

    expect((await switchTo({ family: "sampling", mode: "initial" })).status).toBe(200);
    expect((await invoke("summarize_notes", {})).data?.summary).toBeUndefined();

    // Bad requests say what is wrong, and leave the service as it was.
    const missing = await switchTo({ family: "sampling", mode: "mock", fixture: "nope.jsonl" });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(
      /^sampling stays as it was: .*nope\.jsonl/,
    );
    const storage = await switchTo({ family: "storage", mode: "off" });
    expect(((await storage.json()) as { error: { message: string } }).error.message).toContain(
      "storage has its own panel",
    );
    const noMode = await switchTo({ family: "sampling", mode: "live" });
    expect(((await noMode.json()) as { error: { message: string } }).error.message).toContain(
      '"mode" "live" is not one of them',
    );
    // No saved account in this test's environment: a real switch says so and changes nothing.
    const noAccount = await switchTo({ family: "sampling", mode: "real" });
    expect(noAccount.status).toBe(400);
    expect(((await noAccount.json()) as { error: { message: string } }).error.message).toMatch(
      /^sampling stays as it was: not logged in/,
    );
    const noReal = await switchTo({ family: "embeddings", mode: "real" });
    expect(((await noReal.json()) as { error: { message: string } }).error.message).toBe(
      "embeddings has no real mode in executa dev; a saved account answers sampling, agent, image, upload",
    );
  });

  it("switches web search to a mock-answer file and off, fetch staying live behind its guard", async () => {
    const kitchen = example("ts-kitchen-sink");
    const ui = await startInspector([
      "--spec",
      `tool_id=kitchen,type=node,command="node ${path.join(kitchen, "dist/main.js")}",dir=${tempDir()}`,
    ]);
    const fixture = path.join(FIXTURES, "web.jsonl");
    type Outcome = { ok: boolean; data?: { results?: { title: string }[] }; error?: unknown };
    const search = async () =>
      (
        (await (
          await post(ui, "/api/invoke", { tool: "search_web", arguments: { query: "tides" } })
        ).json()) as { entry: { outcome: Outcome } }
      ).entry.outcome;
    const switchTo = async (body: unknown) =>
      (
        (await (await post(ui, "/api/services", body)).json()) as {
          services: Record<string, string>;
        }
      ).services;
    // As started (no --mock-web): search has no provider, and says which file would answer it.
    expect(JSON.stringify(await search())).toContain("--mock-web <fixture.jsonl>");
    expect((await switchTo({ family: "web", mode: "mock", fixture })).web).toBe(
      `fetch live (SSRF-guarded), search mock (${fixture}, switched)`,
    );
    expect((await search()).data?.results?.map((r) => r.title)).toEqual([
      "Tide tables",
      "Why tides happen",
    ]);
    const read = (
      (await (
        await post(ui, "/api/invoke", {
          tool: "read_page",
          arguments: { urls: ["http://127.0.0.1:9/x"] },
        })
      ).json()) as { entry: { outcome: { data?: unknown } } }
    ).entry.outcome;
    expect(read.data).toMatchObject({
      pages: [{ url: "http://127.0.0.1:9/x", ok: false, error: "SSRF_BLOCKED" }],
    });
    expect((await switchTo({ family: "web", mode: "off" })).web).toBe("off (switched)");
    const off = await search();
    expect(off.ok).toBe(false);
    expect(off.data?.results).toBeUndefined();
    expect((await switchTo({ family: "web", mode: "initial" })).web).toBe(
      "fetch live (SSRF-guarded), search off",
    );
  });

  it("saves an invoke's host calls as a mock-answer file that answers them the same way offline", async () => {
    const dir = tempDir();
    const fixture = path.join(example("ts-notes"), "fixtures/sampling.jsonl");
    const run = async (mock: string) => {
      const ui = await startInspector([...notesIn(dir), "--mock-sampling", mock]);
      const invoke = async (tool: string, args: Record<string, unknown>) =>
        (
          (await (await post(ui, "/api/invoke", { tool, arguments: args })).json()) as {
            entry: { id: number; outcome: { ok: boolean; data?: { summary?: string } } };
          }
        ).entry;
      return { ui, invoke };
    };
    const first = await run(fixture);
    const echo = await first.invoke("echo", { text: "hi" });
    const none = await post(first.ui, `/api/history/${echo.id}/save-mock`, {});
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: { message: string } }).error.message).toContain(
      "made no calls to the host",
    );
    await first.invoke("add_note", { text: "buy milk" });
    const summary = await first.invoke("summarize_notes", {});
    expect(summary.outcome.data?.summary).toBe(
      "You have some shopping to do: milk is on the list.",
    );
    const saved = (await (
      await post(first.ui, `/api/history/${summary.id}/save-mock`, {})
    ).json()) as {
      path: string;
      lines: number;
      skipped: string[];
    };
    expect(saved.path).toBe(path.join(dir, ".anna/inspector/mocks/summarize_notes-1.jsonl"));
    const lines = readFileSync(saved.path, "utf8")
      .split("\n")
      .filter((l) => l !== "" && !l.startsWith("#"))
      .map(
        (l) => JSON.parse(l) as { ns: string; method: string; match: unknown; result?: unknown },
      );
    expect(lines).toHaveLength(saved.lines);
    const sampling = lines.find((l) => l.ns === "sampling");
    expect(sampling).toMatchObject({
      method: "createMessage",
      match: {
        systemPrompt: "You summarise personal notes briefly and kindly.",
        messages: [{ role: "user", content: { text: expect.stringContaining("1. buy milk") } }],
      },
      result: { content: { text: "You have some shopping to do: milk is on the list." } },
    });
    expect(Object.keys(sampling?.match as object)).not.toContain("_clientTimeoutS");
    expect(JSON.stringify(sampling?.match)).not.toContain("invoke_id");
    await first.ui.stop();

    // A run with only the saved file answers the same request the same way.
    const replay = await run(saved.path);
    await replay.invoke("add_note", { text: "buy milk" });
    expect((await replay.invoke("summarize_notes", {})).outcome.data?.summary).toBe(
      "You have some shopping to do: milk is on the list.",
    );
  });

  it("sets and withdraws a declared credential for the next invokes, never showing its value", async () => {
    const ui = await startInspector(["--spec", `tool_id=creds,type=node,command="node ${CREDS}"`]);
    const secret = "tok-0123456789abcdef";
    const state = async () =>
      (await (await fetch(`${ui.base}/api/state`, { headers: auth(ui) })).json()) as {
        credentials: { name: string; source: string; required: boolean }[];
      };
    const check = async () =>
      (
        (await (await post(ui, "/api/invoke", { tool: "check", arguments: {} })).json()) as {
          entry: { outcome: { data: { configured: boolean; length: number } } };
        }
      ).entry.outcome.data;
    expect((await state()).credentials).toEqual([
      { name: "CREDS_TOKEN", display_name: "Creds token", required: true, source: "unset" },
    ]);
    expect(await check()).toEqual({ configured: false, length: 0 });

    const set = await post(ui, "/api/credentials", { name: "CREDS_TOKEN", value: secret });
    expect(set.status).toBe(200);
    expect(JSON.stringify(await set.json())).not.toContain(secret);
    expect((await state()).credentials[0]!.source).toBe("page");
    expect(await check()).toEqual({ configured: true, length: secret.length });
    // Nothing the page can read holds the value: not the state, not the frames.
    const everything = await (await fetch(`${ui.base}/api/state`, { headers: auth(ui) })).text();
    expect(everything).toContain('"context"');
    expect(everything).not.toContain(secret);

    expect((await post(ui, "/api/credentials", { name: "CREDS_TOKEN", value: null })).status).toBe(
      200,
    );
    expect((await state()).credentials[0]!.source).toBe("unset");
    expect(await check()).toEqual({ configured: false, length: 0 });

    const bad = await post(ui, "/api/credentials", { name: "CREDS TOKEN", value: "x" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain(
      '"name" must be letters, digits and _',
    );
    const empty = await post(ui, "/api/credentials", { name: "CREDS_TOKEN", value: "" });
    expect(((await empty.json()) as { error: { message: string } }).error.message).toContain(
      "non-empty string, or null",
    );
  });
});
