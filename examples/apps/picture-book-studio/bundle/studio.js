// Picture Book Studio's logic, written against the SDK's runtime (`anna`) and nothing else, so
// the same code runs in the iframe (`await AnnaAppRuntime.connect()`) and under `mountBundle` in
// tests/. main.js wires it to the page. Every Host API call here is granted in manifest.json
// `ui.host_api`; `anna-app validate --strict` checks that.

/** The bundled executa (app.json `bundled_executas`); the SDK and the harness resolve the ref. */
export const STORYTELLER = "bundled:storyteller";
/** The storage key holding the last finished book. */
export const BOOK_KEY = "book";
/** A picture book is short: six sentences fit well under this. */
export const STORY_MAX_TOKENS = 600;
export const BLURB_MAX_TOKENS = 80;

const STORY_SYSTEM_PROMPT =
  "You write picture books for children aged 3 to 6: short sentences, simple words, a warm ending.";

export function storyPrompt(idea) {
  return `Write a picture-book story in six short sentences about ${idea}.`;
}

export function illustrationPrompt(idea) {
  return `Storybook watercolour illustration, soft colours, for a children's book about ${idea}`;
}

export function blurbPrompt(story) {
  return `Write a one-sentence back-cover blurb for this picture book:\n${story}`;
}

export function editorPrompt(question, story) {
  return `You are this picture book's editor. ${question}\n\nThe story:\n${story}`;
}

function userMessage(text) {
  return [{ role: "user", content: { type: "text", text } }];
}

/** The idea as typed, or an error that says what to type. */
export function checkedIdea(raw) {
  const idea = String(raw ?? "")
    .trim()
    .replace(/\s+/g, " ");
  if (idea === "") throw new Error("Type an idea first, e.g. “a shy fox who learns to sing”.");
  return idea;
}

/**
 * Streams the story with `llm.stream`: `onText(textSoFar, token)` runs on every `model_token`
 * frame, so the page grows as the model writes. Resolves with the whole text (the `complete`
 * frame's, which is authoritative) and how many token frames arrived.
 */
export async function writeStory(anna, idea, onText = () => {}) {
  const stream = anna.llm.stream({
    messages: userMessage(storyPrompt(idea)),
    systemPrompt: STORY_SYSTEM_PROMPT,
    maxTokens: STORY_MAX_TOKENS,
  });
  let text = "";
  let tokens = 0;
  let final;
  for await (const frame of stream) {
    if (frame?.event === "model_token" && typeof frame.text === "string") {
      text += frame.text;
      tokens += 1;
      onText(text, frame.text);
    } else if (frame?.event === "complete") {
      final = frame.content?.text;
    } else if (frame?.event === "error") {
      throw new Error(`the story stream failed: ${frame.message ?? JSON.stringify(frame)}`);
    }
  }
  const story = (typeof final === "string" ? final : text).trim();
  if (story === "") throw new Error("the model wrote nothing; try another idea");
  return { story, tokens };
}

/** One `llm.complete`: the back-cover blurb. */
export async function writeBlurb(anna, story) {
  const reply = await anna.llm.complete({
    messages: userMessage(blurbPrompt(story)),
    maxTokens: BLURB_MAX_TOKENS,
  });
  return String(reply?.content?.text ?? "").trim();
}

/**
 * The title comes from the bundled executa, which asks the LLM itself (reverse sampling); the
 * window's title bar shows it.
 */
export async function titleStory(anna, story) {
  const answer = await anna.tools.invoke({
    tool_id: STORYTELLER,
    method: "title_story",
    args: { story, style: "gentle" },
  });
  // The SDK unwraps the executa's {success, data} envelope; a mock may hand it back as is.
  const data = answer?.data ?? answer;
  if (typeof data?.title !== "string" || data.title === "") {
    throw new Error(`the storyteller answered without a title: ${JSON.stringify(answer)}`);
  }
  await anna.window.set_title(`${data.title} · Picture Book Studio`);
  return data.title;
}

/** One `image.generate`; resolves with the first image (`{url, width?, height?}`). */
export async function illustrate(anna, idea) {
  const result = await anna.image.generate({ prompt: illustrationPrompt(idea), n: 1 });
  const image = result?.images?.[0];
  if (typeof image?.url !== "string" || image.url === "") {
    throw new Error(`image.generate answered without an image: ${JSON.stringify(result)}`);
  }
  return image;
}

/**
 * The text a frame of an agent run adds: the dev harness streams `delta` frames, hosted runs
 * `sse` frames with an OpenAI-style chunk (L6998–L7003).
 */
export function agentFrameText(frame) {
  if (frame?.event === "delta" || frame?.event === "token") {
    return typeof frame.text === "string" ? frame.text : "";
  }
  if (frame?.event === "sse") {
    const content = frame.choices?.[0]?.delta?.content;
    return typeof content === "string" ? content : "";
  }
  return "";
}

/** An editor: one agent session (submode `auto`) reused for every question. */
export function createEditor(anna) {
  let session;
  return {
    /** Streams the editor's answer; `onText(textSoFar)` on every piece. */
    async ask(question, story, onText = () => {}) {
      const q = String(question ?? "").trim();
      if (q === "") throw new Error("Ask the editor something, e.g. “How can the ending land?”");
      session ??= await anna.agent.session({ submode: "auto", label: "picture-book editor" });
      let text = "";
      let final;
      for await (const frame of session.run({ content: editorPrompt(q, story) })) {
        const piece = agentFrameText(frame);
        if (piece !== "") {
          text += piece;
          onText(text);
        }
        if (frame?.event === "final" && typeof frame.text === "string") final = frame.text;
        if (frame?.event === "error") {
          throw new Error(`the editor's run failed: ${frame.message ?? JSON.stringify(frame)}`);
        }
      }
      return (final ?? text).trim();
    },
    get sessionId() {
      return session?.appSessionUuid;
    },
  };
}

/** Makes the whole book: the story first (it feeds the rest), then title, blurb and picture. */
export async function makeBook(anna, rawIdea, { onStory = () => {} } = {}) {
  const idea = checkedIdea(rawIdea);
  const { story, tokens } = await writeStory(anna, idea, onStory);
  const [title, blurb, image] = await Promise.all([
    titleStory(anna, story),
    writeBlurb(anna, story),
    illustrate(anna, idea),
  ]);
  const book = { idea, title, blurb, story, image: { url: image.url } };
  await anna.storage.set({ key: BOOK_KEY, value: book });
  return { book, tokens };
}

/** The last saved book, or null. */
export async function loadBook(anna) {
  const { value } = await anna.storage.get(BOOK_KEY);
  return value && typeof value === "object" && typeof value.story === "string" ? value : null;
}

/** A Host API error as the page shows it: its code first, then what to do. */
export function describeError(error) {
  const code = typeof error?.code === "string" ? error.code : undefined;
  const message = error?.message ?? String(error);
  return code === undefined ? message : `${code}: ${message}`;
}
