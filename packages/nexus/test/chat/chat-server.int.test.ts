// Chat turns in the real `anna-nexus start` process: offline by default (the turn answers with
// the offline model's plain notice, never posing as a model), a bad LLM setting refuses to
// start, and a turn the process was killed in the middle of ends `failed` at the next start.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OFFLINE_FALLBACK_TEXT } from "@anna-ai/agent";
import { startFakeProvider } from "@anna-ai/agent/test-kit";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { parseSseText } from "../helpers/chat.js";
import { startNexus } from "../helpers/process.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "anna-nexus-chat-"));
  dirs.push(d);
  return d;
};

async function listening(data: string, env: NodeJS.ProcessEnv = {}) {
  const p = startNexus(["start", "--port", "0", "--data", data], env);
  onTestFinished(async () => {
    p.signal("SIGKILL");
    await p.exited().catch(() => {});
  });
  const m = await p.waitFor(/"msg":"listening","url":"(http:\/\/[^"]+)"/);
  return { p, url: m[1] as string };
}

/** Signs up through the API and returns the session cookie, as a browser holds it. */
async function signUp(url: string): Promise<string> {
  const signup = await fetch(`${url}/api/v1/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "chat@example.com", password: "correct horse battery" }),
  });
  expect(signup.status).toBe(201);
  return /anna_session=([^;]+)/.exec(signup.headers.get("set-cookie") ?? "")?.[0] ?? "";
}

async function call(url: string, cookie: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { cookie, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function sse(
  url: string,
  cookie: string,
  turnId: string,
  stopAfter?: (e: string) => boolean,
) {
  // readEvents sends a Bearer header; a browser sends the cookie, so pass it through fetch.
  const res = await fetch(`${url}/api/v1/chat/turns/${turnId}/events`, { headers: { cookie } });
  const reader = res.body!.getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += new TextDecoder().decode(value);
    if (stopAfter?.(text)) {
      await reader.cancel();
      return text;
    }
  }
}

describe("chat turns in anna-nexus start", () => {
  it("answers a turn with the offline model when no provider is configured", async () => {
    const { p, url } = await listening(tempDir());
    // The chat model is logged once, with the gateway; chat says what its turns can reach.
    expect(p.stderr()).toMatch(/"msg":"llm gateway ready","chat":"offline\//);
    expect(p.stderr()).toMatch(/"msg":"chat ready".*"platform_tools":\[/);
    expect(p.stderr().match(/"chat":"offline\//g)).toHaveLength(1);
    const cookie = await signUp(url);
    const conv = await call(url, cookie, "POST", "/api/v1/chat/conversations", {});
    expect(conv.status).toBe(201);
    const turn = await call(
      url,
      cookie,
      "POST",
      `/api/v1/chat/conversations/${conv.body.id as string}/turns`,
      {
        text: "hello?",
      },
    );
    expect(turn.status).toBe(202);
    const stream = await sse(url, cookie, turn.body.turn_id as string);
    const frames = parseSseText(stream);
    expect(frames.at(-1)?.data).toMatchObject({ type: "turn.finished", status: "completed" });
    const text = frames
      .map((f) => (f.event === "text.delta" ? (f.data.text as string) : ""))
      .join("");
    expect(text).toBe(OFFLINE_FALLBACK_TEXT);
  });

  it("refuses to start with a bad LLM setting, naming the variable", async () => {
    const bad = startNexus(["start", "--port", "0", "--data", tempDir()], {
      ANNA_LLM_PROVIDER: "gpt",
    });
    expect(await bad.exited()).toBe(2);
    expect(bad.stderr()).toContain("ANNA_LLM_PROVIDER");
  });

  it("fails a turn the server was killed in the middle of, at the next start", async () => {
    const fake = await startFakeProvider();
    onTestFinished(() => fake.close());
    fake.enqueue({ text: ["Half an ans"], stall: true });
    const data = tempDir();
    const env = {
      ANNA_LLM_PROVIDER: "openai-compatible",
      ANNA_LLM_BASE_URL: fake.baseUrl,
      ANNA_LLM_MODEL: "llama-test",
      ANNA_LLM_API_KEY: "sk-test",
    };
    const first = await listening(data, env);
    const cookie = await signUp(first.url);
    const conv = await call(first.url, cookie, "POST", "/api/v1/chat/conversations", {});
    const turnId = (
      await call(
        first.url,
        cookie,
        "POST",
        `/api/v1/chat/conversations/${conv.body.id as string}/turns`,
        {
          text: "think hard",
        },
      )
    ).body.turn_id as string;
    await sse(first.url, cookie, turnId, (t) => t.includes("event: text.delta"));
    first.p.signal("SIGKILL");
    await first.p.exited();

    const second = await listening(data, env);
    expect(second.p.stderr()).toMatch(/"msg":"chat ready".*"interrupted_turns_failed":1/);
    const turn = await call(second.url, cookie, "GET", `/api/v1/chat/turns/${turnId}`);
    expect(turn.body).toMatchObject({ status: "failed", error: { code: "server_stopped" } });
    const stream = await sse(second.url, cookie, turnId);
    const frames = parseSseText(stream);
    expect(frames[0]?.event).toBe("turn.started");
    expect(frames.map((f) => f.id)).toEqual(frames.map((_, i) => i + 1));
    expect(frames.at(-1)?.data).toMatchObject({ type: "turn.finished", status: "failed" });
  });
});
