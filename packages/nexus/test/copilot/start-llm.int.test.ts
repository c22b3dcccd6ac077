// `anna-nexus start` with the gateway from the environment, as a real process: offline by
// default and answering; a real OpenAI-compatible server (the fake provider) behind ANNA_LLM_*;
// the model printed at start and the key never; a bad quota setting refused as a usage error.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeProvider } from "@anna-ai/agent/test-kit";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { startNexus } from "../helpers/process.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

async function listening(env: NodeJS.ProcessEnv) {
  const data = mkdtempSync(join(tmpdir(), "anna-nexus-llm-"));
  dirs.push(data);
  const p = startNexus(["start", "--port", "0", "--data", data], env);
  onTestFinished(async () => {
    p.signal("SIGTERM");
    await p.exited();
  });
  const m = await p.waitFor(/"msg":"listening","url":"(http:\/\/[^"]+)"/);
  return { p, url: m[1] as string };
}

/** Sign up and the device flow, as the published CLI runs it. */
async function devicePat(url: string): Promise<string> {
  const signup = await post(`${url}/api/v1/auth/signup`, {
    email: "dev@example.com",
    password: "correct horse battery",
  });
  const cookie = /anna_session=[^;]+/.exec(signup.headers.get("set-cookie") ?? "")![0];
  const start = (await (await post(`${url}/api/v1/anna-apps/dev/login/start`, {})).json()) as {
    device_code: string;
    user_code: string;
  };
  const approve = await post(
    `${url}/api/v1/anna-apps/dev/login/approve`,
    { user_code: start.user_code },
    { cookie, origin: url },
  );
  expect(approve.status).toBe(200);
  const poll = await post(`${url}/api/v1/anna-apps/dev/login/poll`, {
    device_code: start.device_code,
  });
  return ((await poll.json()) as { pat: string }).pat;
}

async function complete(url: string, text: string): Promise<Record<string, unknown>> {
  const pat = await devicePat(url);
  const s = (await (
    await post(`${url}/api/v1/copilot/app/sessions`, { pat, app_slug: "notes", kind: "complete" })
  ).json()) as { app_session_token: string };
  const res = await post(
    `${url}/api/v1/copilot/app/complete`,
    { messages: [{ role: "user", content: { type: "text", text } }] },
    { authorization: `Bearer ${s.app_session_token}` },
  );
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

describe("anna-nexus start with the LLM gateway", () => {
  it("is offline by default, says so, and answers completions", async () => {
    const { p, url } = await listening({});
    expect(p.stderr()).toMatch(
      /"msg":"llm gateway ready","chat":"offline\/offline","sampling":"offline\/offline"/,
    );
    const reply = await complete(url, "Say hi");
    expect(reply).toMatchObject({ role: "assistant", model: "offline", content: { type: "text" } });
  });

  it("calls the configured OpenAI-compatible server and never prints its key", async () => {
    const key = "sk-live-do-not-print-0123456789";
    const fake = await startFakeProvider({ apiKey: key });
    onTestFinished(() => fake.close());
    fake.enqueue({ text: "Hello from the model" });
    const { p, url } = await listening({
      ANNA_LLM_PROVIDER: "openai-compatible",
      ANNA_LLM_BASE_URL: fake.baseUrl,
      ANNA_LLM_API_KEY: key,
      ANNA_LLM_MODEL: "fake-chat-1",
      ANNA_LLM_QUOTA_TOKENS: "100000",
    });
    expect(p.stderr()).toMatch(
      /"msg":"llm gateway ready","chat":"openai-compatible\/fake-chat-1".*"quota_tokens_per_user":100000/,
    );
    const reply = await complete(url, "Say hi");
    expect(reply).toMatchObject({
      content: { type: "text", text: "Hello from the model" },
      model: "fake-chat-1",
    });
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);
    expect(p.stderr() + p.stdout()).not.toContain(key);
  });

  it("refuses a malformed quota or provider setting with exit 2 and the setting's name", async () => {
    const data = mkdtempSync(join(tmpdir(), "anna-nexus-llm-"));
    dirs.push(data);
    const bad = startNexus(["start", "--port", "0", "--data", data], {
      ANNA_LLM_QUOTA_TOKENS: "lots",
    });
    expect(await bad.exited()).toBe(2);
    expect(bad.stderr()).toMatch(
      /ANNA_LLM_QUOTA_TOKENS must be a whole number above 0 \(got 'lots'\)/,
    );
    const provider = startNexus(["start", "--port", "0", "--data", data], {
      ANNA_LLM_PROVIDER: "skynet",
    });
    expect(await provider.exited()).toBe(2);
    expect(provider.stderr()).toMatch(/ANNA_LLM_PROVIDER/);
  });
});
