// `anna-app dev --llm real` against a real `anna-nexus start` (offline model): a window's
// llm.complete and agent session are answered by the server through dev app sessions of the
// app's slug; a refused saved token stops the start naming `anna-app login`; the flag's
// contradictions (`--llm mock` without a fixture, …) are usage errors.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { NexusClient } from "../../src/account/nexus-client.js";
import { DevLaunchError } from "../../src/dev/load-app.js";
import { CompleteSessions, DevAppSessions } from "../../src/real-copilot/dev-app-sessions.js";
import { nexusAgentService } from "../../src/real-copilot/nexus-agent.js";
import { rpc, scaffoldTestApp, startHarness, tokenOf } from "../dev/helpers.js";
import { runCli, tempDir } from "../executa-dev/helpers.js";
import { savedAccountEnv } from "../real-storage/storage-nexus.js";
import { type CopilotNexus, startCopilotNexus } from "./copilot-nexus.js";

const TEST_TIMEOUT_MS = 90_000;

async function appWithModelGrants() {
  const app = await scaffoldTestApp();
  const manifestPath = path.join(app.dir, "manifest.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
    ui: { host_api: Record<string, unknown> };
  };
  manifest.ui.host_api.llm = ["complete"];
  manifest.ui.host_api.agent = { session: { auto: true } };
  writeFileSync(manifestPath, JSON.stringify(manifest));
  return app;
}

describe("anna-app dev --llm real", { timeout: TEST_TIMEOUT_MS }, () => {
  let nexus: CopilotNexus;
  beforeAll(async () => {
    nexus = await startCopilotNexus();
  }, TEST_TIMEOUT_MS);
  afterAll(() => nexus?.close());

  it("answers a window's llm.complete with the server's model and accounts it to the app", async () => {
    const app = await appWithModelGrants();
    const server = await startHarness(app, { llm: "real", env: nexus.env });
    expect(server.llmLabel).toBe(`real (${nexus.url}, app dev-harness-app)`);
    const args = { messages: [{ role: "user", content: { type: "text", text: "hello" } }] };
    const answer = await rpc(server, tokenOf(server), "llm", "complete", args);
    expect(answer.body).toMatchObject({
      ok: true,
      result: { role: "assistant", model: "offline", content: { type: "text" } },
    });
    const rows = await nexus.usage();
    expect(rows.some((r) => r.app_id === "dev-harness-app" && r.total_tokens > 0)).toBe(true);
  });

  it("creates and runs an agent session on the server", async () => {
    const app = await appWithModelGrants();
    const server = await startHarness(app, { llm: "real", env: nexus.env });
    const token = tokenOf(server);
    const created = await rpc(server, token, "agent", "session.create", { submode: "auto" });
    expect(created.body).toMatchObject({ ok: true });
    const uuid = (created.body.result as { app_session_uuid: string }).app_session_uuid;
    expect(uuid).toMatch(/^aps_/);
    // The call answers once the run has started; its frames end in `end` when the run is over.
    const ended = new Set<string>();
    let onEnd: () => void = () => undefined;
    const unsubscribe = server.dispatcher.events.subscribe(
      { userId: server.dispatcher.userId, windowUuid: server.window.window_uuid },
      (e) => {
        const p = e.payload as { stream_id?: string; done?: boolean };
        if (e.kind !== "rpc.stream" || p.done !== true) return;
        ended.add(p.stream_id ?? "");
        onEnd();
      },
    );
    onTestFinished(unsubscribe);
    const run = await rpc(server, token, "agent", "session.run", {
      app_session_uuid: uuid,
      content: "plan a picnic",
    });
    expect(run.body).toMatchObject({ ok: true, result: { stream_id: expect.any(String) } });
    const streamId = (run.body.result as { stream_id: string }).stream_id;
    await new Promise<void>((resolve) => {
      onEnd = () => ended.has(streamId) && resolve();
      onEnd();
    });
    const history = await rpc(server, token, "agent", "session.history", {
      app_session_uuid: uuid,
    });
    expect(history.body).toMatchObject({
      ok: true,
      result: { messages: [{ role: "user", content: "plan a picnic" }, { role: "assistant" }] },
    });
    const listed = await rpc(server, token, "agent", "session.list", {});
    expect(JSON.stringify(listed.body)).toContain(uuid);
    expect(
      (await rpc(server, token, "agent", "session.delete", { app_session_uuid: uuid })).body,
    ).toMatchObject({ ok: true, result: { deleted: true } });
  });

  it("the agent service caps a run's frames (-32047), and names an unknown session (-32042)", async () => {
    const client = new NexusClient({ host: nexus.url, pat: nexus.pat });
    const sessions = new DevAppSessions({ client, appSlug: "frame-cap" });
    const agent = nexusAgentService({
      client,
      sessions,
      complete: new CompleteSessions(sessions),
      keyOf: () => "test",
      maxFramesPerRun: 2,
    });
    const ctx = {
      userId: "1",
      toolId: "tool-cap",
      invokeId: "inv-1",
      pluginName: "cap",
      tool: "t",
      deadlineMs: Date.now() + 60_000,
      signal: new AbortController().signal,
      grant: {},
    } as Parameters<typeof agent.sessionRun>[1];
    const created = await agent.sessionCreate({ agent_submode: "auto" }, ctx);
    await expect(
      agent.sessionRun({ app_session_uuid: created.app_session_uuid, content: "hi" }, ctx),
    ).rejects.toMatchObject({ code: -32047, message: expect.stringMatching(/more than 2 frames/) });
    await expect(
      agent.sessionRun({ app_session_uuid: `aps_${"0".repeat(32)}`, content: "hi" }, ctx),
    ).rejects.toMatchObject({
      code: -32042,
      message: expect.stringMatching(/agent\/session\.create/),
    });
    expect(
      await agent.sessionCancel(
        { app_session_uuid: created.app_session_uuid, run_id: "run_not_running" },
        ctx,
      ),
    ).toEqual({ cancelled: false });
    expect(await agent.sessionDelete({ app_session_uuid: created.app_session_uuid }, ctx)).toEqual({
      deleted: true,
    });
  });

  it("a refused saved token stops the start, naming anna-app login", async () => {
    const app = await appWithModelGrants();
    const env = await savedAccountEnv(tempDir(), nexus.url, "anna_pat_wrong_but_long_enough_0123");
    const started = startHarness(app, { llm: "real", env });
    await expect(started).rejects.toBeInstanceOf(DevLaunchError);
    await expect(started).rejects.toThrow(/--llm real: .*anna-app login --host/);
  });

  it("without a saved account it says to log in", async () => {
    const app = await appWithModelGrants();
    const started = startHarness(app, {
      llm: "real",
      env: { XDG_CONFIG_HOME: tempDir(), ANNA_APP_HOST: undefined, ANNA_APP_PAT: undefined },
    });
    await expect(started).rejects.toThrow(/--llm real: not logged in: .*anna-app login --host/);
  });
});

describe("anna-app dev --llm flags", () => {
  it.each([
    [["--llm", "mock"], /--llm mock needs --mock-llm <fixture\.jsonl>/],
    [["--llm", "real", "--mock-llm", "f.jsonl"], /--mock-llm goes with --llm mock/],
    [["--no-llm", "--llm", "real"], /either --no-llm or --llm real/],
    [["--llm", "off", "--mock-llm", "f.jsonl"], /either --llm off or --mock-llm/],
    [["--llm-account", "http://127.0.0.1:9"], /--llm-account goes with --llm real/],
    [["--llm", "maybe"], /maybe/],
  ])("anna-app dev %j is a usage error", async (flags, message) => {
    const r = await runCli(["dev", ...flags], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
