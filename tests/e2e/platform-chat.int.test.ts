// The whole platform doing its one job: `npm start` (Nexus, dashboard, the example apps published
// through the real path) with its model a fake OpenAI-compatible provider over real HTTP. A
// person installs Focus Flow, `#mention`s it in a chat turn, the model calls the app's Python
// executa — installed by the server from its own blob store and run in the sandbox — the result
// goes back to the model, the answer streams over SSE; a reader that reconnects after a frame
// gets exactly the rest. SIGINT stops the server and every plugin process with it.
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeProvider } from "@anna-ai/agent/test-kit";
import { describe, expect, it, onTestFinished } from "vitest";
import { parseSseText, type SseFrame } from "../../packages/nexus/test/helpers/chat.js";
import { descendants, running, spawnWatched } from "../support/child-process.js";
import { needs } from "../support/toolchains.js";

const REPO = path.resolve(import.meta.dirname, "../..");
const python = needs("python3");
const SLOW = { timeout: 300_000 };
const KEY = "sk-fake-e2e-key-0123456789";

describe.runIf(process.platform === "linux" && !python.skip)(
  `a chat turn on the whole platform${python.reason}`,
  () => {
    it("runs an installed app's executa for a #mention and streams the answer", SLOW, async () => {
      const fake = await startFakeProvider({ apiKey: KEY });
      onTestFinished(() => fake.close());
      const data = await mkdtemp(path.join(tmpdir(), "platform-chat-"));
      onTestFinished(() => rm(data, { recursive: true, force: true }));
      // Under root the sandbox runs plugins as nobody, who must reach the installed files.
      await chmod(data, 0o755);
      const server = spawnWatched("npm", ["start", "--", "--port", "0", "--data", data], {
        cwd: REPO,
        env: {
          ...process.env,
          NO_COLOR: "1",
          ANNA_LLM_PROVIDER: "openai-compatible",
          ANNA_LLM_BASE_URL: fake.baseUrl,
          ANNA_LLM_API_KEY: KEY,
          ANNA_LLM_MODEL: "fake-chat-1",
        },
        timeoutMs: 180_000,
      });
      await server.waitFor(/^ {2}stop +Ctrl-C$/m);
      const url = server.stdout().match(/^ {2}open +(http:\/\/127\.0\.0\.1:\d+)\/$/m)?.[1];
      const password = server.stdout().match(/password (\S+)/)?.[1];
      expect(url && password, server.stdout()).toBeTruthy();
      expect(server.stderr()).not.toContain(KEY);

      const signin = await fetch(`${url}/api/v1/auth/signin`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: url! },
        body: JSON.stringify({ email: "admin@anna.localhost", password }),
      });
      expect(signin.status).toBe(200);
      const cookie = /anna_session=[^;]+/.exec(signin.headers.get("set-cookie") ?? "")![0];
      const call = async (method: string, p: string, body?: unknown) => {
        const res = await fetch(`${url}${p}`, {
          method,
          headers: {
            cookie,
            origin: url!,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await res.text();
        expect(res.status, `${method} ${p}: ${text}`).toBeLessThan(300);
        return (text === "" ? {} : JSON.parse(text)) as Record<string, unknown>;
      };
      const turn = async (conversation: string, text: string): Promise<SseFrame[]> => {
        const { turn_id } = (await call(
          "POST",
          `/api/v1/chat/conversations/${conversation}/turns`,
          {
            text,
          },
        )) as { turn_id: string };
        const res = await fetch(`${url}/api/v1/chat/turns/${turn_id}/events`, {
          headers: { cookie, accept: "text/event-stream" },
          signal: AbortSignal.timeout(120_000),
        });
        const frames = parseSseText(await res.text());
        // A reader that reconnects after the second frame gets exactly the rest.
        const resumed = await fetch(`${url}/api/v1/chat/turns/${turn_id}/events`, {
          headers: { cookie, accept: "text/event-stream", "last-event-id": String(frames[1]!.id) },
          signal: AbortSignal.timeout(30_000),
        });
        expect(parseSseText(await resumed.text())).toEqual(frames.slice(2));
        return frames;
      };

      await call("POST", "/api/v1/store/apps/focus-flow/install");
      const { id } = (await call("POST", "/api/v1/chat/conversations", {})) as { id: string };

      // First turn: the model sees the app's tools because the app is mentioned.
      fake.enqueue({ text: "Ready when you are." });
      const first = await turn(id, "#focus-flow what can you do?");
      expect(first.at(-1)?.data).toMatchObject({ type: "turn.finished", status: "completed" });
      const offered =
        (fake.requests.at(-1)?.body as { tools?: { function: { name: string } }[] }).tools?.map(
          (t) => t.function.name,
        ) ?? [];
      const start = offered.find((name) => name.endsWith("start_session"));
      expect(start, offered.join(", ")).toBeDefined();

      // Second turn: the model calls it; the plugin answers through the sandbox.
      fake.enqueue(
        { toolCalls: [{ name: start!, args: { task: "write the release notes", minutes: 25 } }] },
        { text: ["Started a ", "25-minute session."] },
      );
      const frames = await turn(id, "#focus-flow start 25 minutes on the release notes");
      const events = frames.map((f) => f.data);
      const result = events.find((e) => e.type === "tool.result") as
        { output: unknown; isError: boolean } | undefined;
      expect(result, JSON.stringify(events)).toBeDefined();
      expect(result!.isError, JSON.stringify(result)).toBe(false);
      expect(JSON.stringify(result!.output)).toContain("release notes");
      const text = events
        .filter((e) => e.type === "text.delta")
        .map((e) => e.text)
        .join("");
      expect(text).toBe("Started a 25-minute session.");
      expect(events.at(-1)).toMatchObject({ type: "turn.finished", status: "completed" });
      // The tool's result went back to the model in the follow-up request.
      expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain("release notes");

      const started = await descendants(server.pid ?? 0);
      server.signal("SIGINT");
      expect(await server.exited()).toBe(130);
      expect(started.filter(running)).toEqual([]);
    });
  },
);
