// The app's Host API calls through `anna-app dev --mock-llm fixtures/llm.jsonl` without a browser
// (the rpc endpoint, as the dashboard's bridge calls it): one mock-answer file answers the
// bundle's llm/agent/image calls and the executa's reverse sampling alike.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { startDevServer } from "../../../../packages/cli/src/dev/dev-server.js";
import { rpc } from "../../../../packages/cli/test/dev/helpers.js";

const APP = path.resolve(fileURLToPath(import.meta.url), "../..");

async function startStudio() {
  const server = await startDevServer({
    manifestPath: path.join(APP, "manifest.json"),
    mockLlm: path.join(APP, "fixtures/llm.jsonl"),
    port: 0,
    watch: false,
    record: false,
  });
  onTestFinished(() => server.close());
  const token = new URL(server.window.url).searchParams.get("t") ?? "";
  return {
    server,
    call: (ns: string, method: string, args: unknown) => rpc(server, token, ns, method, args),
  };
}

describe("picture-book-studio's calls in anna-app dev", () => {
  it("answers image.generate from the fixture, synthetically, or with the fixture's refusal", async () => {
    const { call } = await startStudio();
    const fox = await call("image", "generate", { prompt: "a fox at night", n: 1 });
    expect(fox.body).toMatchObject({
      ok: true,
      result: { model: "mock-illustrator", images: [{ width: 240, height: 180 }] },
    });
    const other = await call("image", "generate", { prompt: "a whale", n: 1 });
    expect(other.body).toMatchObject({ ok: true, result: { model: "mock-image" } });
    const url = (other.body as { result: { images: { url: string }[] } }).result.images[0]?.url;
    expect(url).toMatch(/^data:image\/png;base64,/);
    const refused = await call("image", "generate", { prompt: "a photorealistic fox" });
    expect(refused.body).toMatchObject({
      ok: false,
      error: { code: "APP_PROVIDER_ERROR", details: { errorCode: "IMAGE_PROVIDER_ERROR" } },
    });
  });

  it("titles a story through the executa, whose sampling the same file answers", async () => {
    const { call } = await startStudio();
    const titled = await call("tools", "invoke", {
      tool_id: "bundled:storyteller",
      method: "title_story",
      args: { story: "Pip was a little fox." },
    });
    expect(titled.body).toMatchObject({
      ok: true,
      result: { title: "Pip and the Night Owls", model: "mock-storybook" },
    });
  });

  it("opens an agent session and starts the editor's run", async () => {
    const { call } = await startStudio();
    const created = await call("agent", "session.create", { submode: "auto" });
    const uuid = (created.body as { result: { app_session_uuid: string } }).result.app_session_uuid;
    expect(uuid).toMatch(/^aps_/);
    const run = await call("agent", "session.run", {
      app_session_uuid: uuid,
      content: "You are this picture book's editor. Any advice?",
    });
    expect(run.body).toMatchObject({
      ok: true,
      result: { stream_id: expect.stringMatching(/^strm_/) },
    });
    const fixed = await call("agent", "session.create", { submode: "fixed", fixed_client_id: "x" });
    expect(fixed.body).toMatchObject({ ok: false, error: { code: "permission_denied" } });
  });
});
