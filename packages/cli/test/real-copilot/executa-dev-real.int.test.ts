// `executa dev` in its real modes against a real `anna-nexus start` (offline model): a Python
// and a Node plugin's sampling, agent sessions, agent/complete and host uploads answered by the
// server, the usage in its ledger, the bytes in its blob store; image calls answered by the
// server's images model (a fake provider); the implicit default (a saved account turns sampling
// and agent real) and its notice; a refused token and an exhausted quota
// as the spec's codes with what to do.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { startFakeProvider } from "@anna-ai/agent/test-kit";
import { example, jsonLine, needs, runCli, tempDir } from "../executa-dev/helpers.js";
import { savedAccountEnv } from "../real-storage/storage-nexus.js";
import { type CopilotNexus, startCopilotNexus } from "./copilot-nexus.js";
import { startInspector } from "../inspector/helpers.js";

const python = needs("python3");
const STUDIO = example("py-studio");
const KITCHEN = example("ts-kitchen-sink");
const STUDIO_TOOL = "tool-examples-py-studio-00000001";

async function invoke(
  env: Record<string, string | undefined>,
  dir: string,
  tool: string,
  args: unknown,
  ...flags: string[]
) {
  const r = await runCli(
    [
      "executa",
      "dev",
      "--dir",
      dir,
      ...flags,
      "--invoke",
      tool,
      "--args",
      JSON.stringify(args),
      "--json",
    ],
    { env, timeoutMs: CLI_TIMEOUT_MS },
  );
  const body = r.stdout.trim() === "" ? {} : (jsonLine(r) as Record<string, unknown>);
  return { code: r.code, body, stderr: r.stderr };
}

/** Every file under a folder, relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** Each test starts the CLI, a plugin and its toolchain; the machine may be busy. */
const TEST_TIMEOUT_MS = 150_000;
const CLI_TIMEOUT_MS = 60_000;
const SERVER_TIMEOUT_MS = 90_000;

// Sequential: each test already runs several processes; one server for all but the quota test.
describe("executa dev against a Nexus", { timeout: TEST_TIMEOUT_MS }, () => {
  let nexus: CopilotNexus;
  beforeAll(async () => {
    nexus = await startCopilotNexus();
  }, SERVER_TIMEOUT_MS);
  afterAll(() => nexus?.close());

  it.skipIf(python.skip)(
    `a saved account makes sampling real: the server's offline model answers and the usage is in its ledger${python.reason}`,
    async () => {
      const r = await invoke(nexus.env, STUDIO, "summarize", { text: "the cat sat on the mat" });
      expect(r.stderr).toMatch(
        new RegExp(
          `executa dev: sampling=real \\(${nexus.url.replace(/[.]/g, "\\.")}, app [a-z0-9-]+: a saved account and no sampling flag\\)  agent=real`,
        ),
      );
      expect(r.stderr).toContain("image=off (the default");
      expect(r.code).toBe(0);
      expect(r.body).toMatchObject({ model: "offline" });
      expect(String(r.body.summary)).not.toBe("");
      const rows = await nexus.usage();
      expect(rows.some((row) => row.tool_id === STUDIO_TOOL && row.total_tokens > 0)).toBe(true);
      expect(r.stderr).not.toContain(nexus.pat);
    },
  );

  it.skipIf(python.skip)(
    `agent sessions and agent/complete run on the server: frames buffered into the result${python.reason}`,
    async () => {
      const plan = await invoke(nexus.env, STUDIO, "plan", { goal: "plan a picnic" });
      const complete = await invoke(nexus.env, STUDIO, "ask_complete", { prompt: "say hi" });
      expect(plan.code).toBe(0);
      expect(Number(plan.body.frames)).toBeGreaterThanOrEqual(3);
      expect(String(plan.body.plan)).not.toBe("");
      expect(complete.code).toBe(0);
      expect(complete.body).toMatchObject({ model: "offline" });
      // The session was released on the server (agent/session.delete → revoke).
      const slug = /agent=real \([^,]+, app ([a-z0-9-]+):/.exec(plan.stderr)?.[1];
      expect(slug).toBeDefined();
      const listed = await fetch(
        `${nexus.url}/api/v1/anna-apps/dev/sessions?kind=agent&app_slug=${slug}`,
        { headers: { authorization: `Bearer ${nexus.pat}` } },
      );
      expect(listed.status).toBe(200);
      expect(((await listed.json()) as { sessions: unknown[] }).sessions).toEqual([]);
    },
  );

  it("the inspector switches agent to the saved account and back while the plugin runs, hiding the PAT", async () => {
    const ui = await startInspector(["--dir", KITCHEN, "--no-agent"], nexus.env);
    const headers = { Authorization: `Bearer ${ui.token}`, "Content-Type": "application/json" };
    const post = async (route: string, body: unknown) => {
      const res = await fetch(ui.base + route, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
      return {
        status: res.status,
        body: (await res.json()) as {
          services: Record<string, string>;
          entry: { outcome: { ok: boolean; data?: unknown } };
        },
      };
    };
    const task = async () =>
      (await post("/api/invoke", { tool: "agent_task", arguments: { task: "name three fruits" } }))
        .body.entry.outcome;
    expect((await task()).ok).toBe(false);
    const real = await post("/api/services", {
      family: "agent",
      mode: "real",
      app_slug: "kitchen-dev",
    });
    expect(real.status).toBe(200);
    expect(real.body.services.agent).toBe(`real (${nexus.url}, app kitchen-dev, switched)`);
    const answered = await task();
    expect(answered.ok).toBe(true);
    expect(JSON.stringify(answered)).toContain("offline");
    // Nothing the page can read carries the account's PAT.
    const state = await (await fetch(`${ui.base}/api/state`, { headers })).text();
    expect(state).toContain("agent/session.run");
    expect(state).not.toContain(nexus.pat);
    expect(
      (await post("/api/services", { family: "agent", mode: "initial" })).body.services.agent,
    ).toBe("off");
    expect((await task()).ok).toBe(false);
  });

  it("a Node plugin's agent turn (create, run, complete, delete) runs on the server", async () => {
    const r = await invoke(nexus.env, KITCHEN, "agent_task", { task: "name three fruits" });
    expect(r.code).toBe(0);
    expect(JSON.stringify(r.body)).toContain("offline");
  });

  it.skipIf(python.skip)(
    `--app-slug makes upload real: inline and negotiated bytes land in the server's blob store${python.reason}`,
    async () => {
      const flags = ["--app-slug", "my-uploads"];
      const inline = await invoke(
        nexus.env,
        STUDIO,
        "share_text",
        { filename: "a.txt", text: "inline bytes" },
        ...flags,
      );
      const presigned = await invoke(
        nexus.env,
        STUDIO,
        "share_text",
        { filename: "b.txt", text: "negotiated bytes", mode: "presigned" },
        ...flags,
      );
      expect(inline.code, inline.stderr).toBe(0);
      expect(presigned.code, presigned.stderr).toBe(0);
      expect(inline.stderr).toMatch(/upload=real \([^)]*app my-uploads: --app-slug\)/);
      for (const [result, text] of [
        [inline, "inline bytes"],
        [presigned, "negotiated bytes"],
      ] as const) {
        const url = String(result.body.download_url);
        expect(url.startsWith(nexus.url)).toBe(true);
        expect(await (await fetch(url)).text()).toBe(text);
      }
      // The bytes are objects of the server's blob store, named by the sha256 of their key.
      const stored = filesUnder(nexus.dataDir);
      for (const [result, text] of [
        [inline, "inline bytes"],
        [presigned, "negotiated bytes"],
      ] as const) {
        const key = String(result.body.r2_key);
        expect(key).toMatch(/^exec-uploads\//);
        const object = createHash("sha256").update(key).digest("hex");
        const file = stored.find((f) => f.endsWith(path.join("objects", object)));
        expect(file, `no blob object for ${key}`).toBeDefined();
        expect(readFileSync(path.join(nexus.dataDir, file as string), "utf8")).toBe(text);
      }
    },
  );

  it.skipIf(python.skip)(
    `real image calls are answered by the server's images model: URLs of its blob store${python.reason}`,
    async () => {
      const fake = await startFakeProvider();
      onTestFinished(() => fake.close());
      const painter = await startCopilotNexus({
        ANNA_LLM_PROVIDER: "openai-compatible",
        ANNA_LLM_BASE_URL: fake.baseUrl,
        ANNA_LLM_MODEL: "fake-chat",
        ANNA_IMAGES_MODEL: "fake-image-1",
      });
      onTestFinished(() => painter.close());
      const r = await invoke(
        painter.env,
        STUDIO,
        "poster",
        { prompt: "a fox", n: 2, size: "512x512" },
        "--app-slug",
        "pics",
      );
      expect(r.code, JSON.stringify(r.body) + r.stderr).toBe(0);
      expect(r.body).toMatchObject({ model: "fake-image-1", count: 2 });
      expect(fake.requests.at(-1)).toMatchObject({
        path: "/v1/images/generations",
        body: { model: "fake-image-1", prompt: "a fox", n: 2, size: "512x512" },
      });
      for (const url of r.body.urls as string[]) {
        expect(url.startsWith(`${painter.url}/`), url).toBe(true);
        const png = await fetch(url);
        expect(png.status).toBe(200);
        expect([...new Uint8Array(await png.arrayBuffer()).slice(0, 4)]).toEqual([
          0x89, 0x50, 0x4e, 0x47,
        ]);
      }
      const rows = await painter.usage();
      expect(rows.some((row) => row.app_id === "pics" && row.purpose === "images")).toBe(true);
    },
    SERVER_TIMEOUT_MS + TEST_TIMEOUT_MS,
  );

  it.skipIf(python.skip)(
    `over the server's token quota sampling answers -32002 saying what to do${python.reason}`,
    async () => {
      const limited = await startCopilotNexus({ ANNA_LLM_QUOTA_TOKENS: "1" });
      onTestFinished(() => limited.close());
      const nexus = limited;
      const first = await invoke(nexus.env, STUDIO, "summarize", { text: "one" });
      expect(first.code).toBe(0);
      const second = await invoke(nexus.env, STUDIO, "summarize", { text: "two" });
      expect(second.code).toBe(1);
      expect(second.body).toMatchObject({
        code: -32002,
        data: { errorCode: "SAMPLING_QUOTA_EXCEEDED", http_status: 429 },
      });
      expect(String(second.body.message)).toMatch(/quota/);
    },
  );

  it("a refused token with --app-slug stops the start with the login command", async () => {
    const env = await savedAccountEnv(tempDir(), nexus.url, "anna_pat_wrong_but_long_enough_0123");
    const r = await invoke(env, KITCHEN, "agent_task", { task: "x" }, "--app-slug", "my-app");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--app-slug \(real sampling\): .*anna-app login --host/);
    expect(r.stderr).not.toContain("anna_pat_wrong");
  });

  it.skipIf(python.skip)(
    `a refused token without flags falls back to off, says why, and sampling answers -32008${python.reason}`,
    async () => {
      const env = await savedAccountEnv(
        tempDir(),
        nexus.url,
        "anna_pat_wrong_but_long_enough_0123",
      );
      const r = await invoke(env, STUDIO, "summarize", { text: "x" });
      expect(r.stderr).toMatch(
        /sampling=off \(no usable saved account: .*'anna-app login' or --mock-sampling\)/,
      );
      expect(r.code).toBe(1);
      expect(r.body).toMatchObject({ code: -32008 });
    },
  );

  it.skipIf(python.skip)(
    `--no-sampling and --no-agent keep a logged-in developer offline${python.reason}`,
    async () => {
      const before = (await nexus.usage()).length;
      const r = await invoke(
        nexus.env,
        STUDIO,
        "summarize",
        { text: "x" },
        "--no-sampling",
        "--no-agent",
      );
      expect(r.code).toBe(1);
      expect(r.body).toMatchObject({ code: -32008 });
      expect(r.stderr).not.toContain("sampling=real");
      expect((await nexus.usage()).length).toBe(before);
    },
  );
});
