// Picture Book Studio's bundle tests, written as a published app writes them: mountBundle from
// @anna-ai/cli/test, the manifest object, and mocks for llm/agent/image/tools. Streams are fed
// the way the host feeds them: the mock answers {stream_id} and emits `rpc.stream` frames.
import { describe, expect, it } from "vitest";
import { HostApiError, mountBundle } from "@anna-ai/cli/test";
import manifest from "../manifest.json" with { type: "json" };
import {
  agentFrameText,
  BOOK_KEY,
  checkedIdea,
  createEditor,
  describeError,
  illustrate,
  loadBook,
  makeBook,
  titleStory,
  writeBlurb,
  writeStory,
} from "../bundle/studio.js";

const STORYTELLER_TOOL_ID = "tool-examples-storyteller-00000003";
const STORY = "Pip was a shy fox. One night Pip sang with the owls. Everyone listened.";
const PNG_URL = "data:image/png;base64,iVBORw0KGgo=";

/** Frames for a stream the way the dispatcher publishes them: seq from 0, done on the last. */
function emitFrames(harness, streamId, payloads) {
  payloads.forEach((payload, seq) => {
    harness.events.emit("rpc.stream", {
      stream_id: streamId,
      seq,
      payload,
      done: seq === payloads.length - 1,
    });
  });
}

/** llm.stream answering with the text as model_token frames, then the complete frame. */
function streamingLlm(harness, text) {
  const tokens = text.match(/\S+\s*/g);
  harness.mock("llm.stream", () => {
    emitFrames(harness, "strm_story", [
      ...tokens.map((t) => ({ event: "model_token", text: t })),
      { event: "complete", role: "assistant", content: { type: "text", text }, model: "m" },
    ]);
    return { stream_id: "strm_story" };
  });
  return tokens;
}

function studioMocks() {
  return {
    "llm.complete": ({ messages }) => ({
      role: "assistant",
      content: { type: "text", text: `  A blurb (${messages.length} message).\n` },
      model: "m",
      stopReason: "endTurn",
    }),
    "tools.invoke": ({ tool_id, method, args }) => ({
      success: true,
      data: { title: `Pip Sings (${tool_id} ${method} ${args.style})` },
    }),
    "image.generate": () => ({ images: [{ url: PNG_URL, width: 240, height: 180 }] }),
  };
}

describe("writing the story", () => {
  it("streams it with llm.stream, the text growing on every model_token frame", async () => {
    const harness = await mountBundle({ manifest });
    const tokens = streamingLlm(harness, STORY);
    const seen = [];

    const { story, tokens: count } = await writeStory(harness.runtime, "a shy fox", (text) =>
      seen.push(text),
    );

    expect(story).toBe(STORY);
    expect(count).toBe(tokens.length);
    expect(seen).toHaveLength(tokens.length);
    expect(seen[0]).toBe("Pip ");
    expect(seen.every((text, i) => i === 0 || text.startsWith(seen[i - 1]))).toBe(true);
    const call = harness.calls.lastOf("llm.stream");
    expect(call.outcome).toBe("ok");
    expect(call.args.maxTokens).toBe(600);
    expect(call.args.messages[0].content.text).toContain("about a shy fox");
  });

  it("refuses an empty idea before calling anything", async () => {
    const harness = await mountBundle({ manifest });
    await expect(makeBook(harness.runtime, "   ")).rejects.toThrow(/Type an idea first/);
    expect(harness.calls.all()).toEqual([]);
    expect(checkedIdea("  a   fox ")).toBe("a fox");
  });
});

describe("the rest of the book", () => {
  it("writes the blurb with one llm.complete", async () => {
    const harness = await mountBundle({ manifest, mocks: studioMocks() });
    expect(await writeBlurb(harness.runtime, STORY)).toBe("A blurb (1 message).");
    const { args } = harness.calls.lastOf("llm.complete");
    expect(args.maxTokens).toBe(80);
    expect(args.messages[0].content.text).toMatch(/back-cover blurb[^]*Pip was a shy fox/);
  });

  it("titles it through the bundled storyteller executa and puts the title in the title bar", async () => {
    const harness = await mountBundle({ manifest, mocks: studioMocks() });
    const title = await titleStory(harness.runtime, STORY);
    expect(title).toBe(`Pip Sings (${STORYTELLER_TOOL_ID} title_story gentle)`);
    expect(harness.calls.lastOf("tools.invoke").args).toMatchObject({
      method: "title_story",
      args: { story: STORY },
    });
    expect(harness.calls.lastOf("window.set_title").args).toEqual({
      title: `${title} · Picture Book Studio`,
    });
  });

  it("illustrates it with image.generate", async () => {
    const harness = await mountBundle({ manifest, mocks: studioMocks() });
    expect(await illustrate(harness.runtime, "a shy fox")).toMatchObject({ url: PNG_URL });
    expect(harness.calls.lastOf("image.generate").args).toEqual({
      prompt: expect.stringContaining("a shy fox"),
      n: 1,
    });
  });

  it("makes the whole book, saves it, and loads it back", async () => {
    const harness = await mountBundle({ manifest, mocks: studioMocks() });
    streamingLlm(harness, STORY);
    const { book } = await makeBook(harness.runtime, "a shy fox");
    expect(book).toMatchObject({ idea: "a shy fox", story: STORY, image: { url: PNG_URL } });
    expect(harness.storage.get(BOOK_KEY)).toEqual(book);
    expect(await loadBook(harness.runtime)).toEqual(book);
    expect(harness.calls.all().map((c) => c.key)).toEqual(
      expect.arrayContaining([
        "llm.stream",
        "tools.invoke",
        "llm.complete",
        "image.generate",
        "storage.set",
      ]),
    );
  });
});

describe("the editor", () => {
  it("opens one auto agent session and streams each answer from its run", async () => {
    const harness = await mountBundle({ manifest });
    let runs = 0;
    harness.mock("agent.session.create", (args) => {
      expect(args).toMatchObject({ submode: "auto" });
      return { app_session_uuid: "aps_editor", expires_in: 600 };
    });
    harness.mock("agent.session.run", ({ app_session_uuid, content }) => {
      runs += 1;
      const streamId = `strm_run_${runs}`;
      emitFrames(harness, streamId, [
        { event: "run_meta", model: "m" },
        { event: "delta", text: "Lovely " },
        { event: "sse", choices: [{ delta: { content: "rhythm!" } }] },
        { event: "final", text: `Lovely rhythm! (${app_session_uuid}, ${content.length})` },
        { event: "end", run_id: `run_${runs}` },
      ]);
      return { stream_id: streamId, run_id: `run_${runs}` };
    });
    const editor = createEditor(harness.runtime);
    const partial = [];

    const first = await editor.ask("How does it end?", STORY, (t) => partial.push(t));
    const second = await editor.ask("Is it too long?", STORY);

    expect(partial).toEqual(["Lovely ", "Lovely rhythm!"]);
    expect(first).toMatch(/^Lovely rhythm! \(aps_editor, \d+\)$/);
    expect(second).toMatch(/^Lovely rhythm!/);
    expect(harness.calls.byNs("agent.session.create")).toHaveLength(1);
    expect(harness.calls.byNs("agent.session.run")).toHaveLength(2);
    expect(harness.calls.lastOf("agent.session.run").args.content).toContain("Is it too long?");
    expect(editor.sessionId).toBe("aps_editor");
  });

  it("reads the text of both frame styles and nothing else", () => {
    expect(agentFrameText({ event: "delta", text: "a" })).toBe("a");
    expect(agentFrameText({ event: "sse", choices: [{ delta: { content: "b" } }] })).toBe("b");
    expect(agentFrameText({ event: "run_meta", text: "no" })).toBe("");
    expect(agentFrameText(undefined)).toBe("");
  });
});

describe("errors", () => {
  it("shows a host refusal with its code", async () => {
    const harness = await mountBundle({
      manifest,
      mocks: {
        "image.generate": () => {
          throw new HostApiError("APP_PROVIDER_ERROR", "storybook styles only");
        },
      },
    });
    const error = await illustrate(harness.runtime, "a photorealistic fox").catch((e) => e);
    expect(describeError(error)).toBe("APP_PROVIDER_ERROR: storybook styles only");
    expect(harness.calls.lastOf("image.generate").outcome).toBe("error");
  });

  it("is denied what the manifest does not grant, even when mocked", async () => {
    const harness = await mountBundle({
      manifest,
      mocks: { "image.edit": () => ({ images: [] }) },
    });
    const error = await harness.runtime.image
      .edit({ prompt: "x", image_url: PNG_URL })
      .catch((e) => e);
    expect(error).toBeInstanceOf(HostApiError);
    expect(describeError(error)).toMatch(/^permission_denied: /);
    await expect(harness.runtime.llm.embed("hi")).rejects.toMatchObject({
      code: "permission_denied",
    });
    expect(harness.calls.all().map((c) => c.outcome)).toEqual(["denied", "denied"]);
  });
});
