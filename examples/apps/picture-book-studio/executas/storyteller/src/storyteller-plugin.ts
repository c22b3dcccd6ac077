// storyteller: Picture Book Studio's bundled executa. `title_story` asks the user's LLM for a
// title through reverse sampling (the host answers; in `anna-app dev` from the app's
// --mock-llm fixture), `split_pages` lays a story out as picture-book pages without any host
// call, so the agent and the app's skill can use it offline.

import { definePlugin, p } from "@anna-ai/executa-sdk";

/** A picture-book title fits on a cover: longer model answers are cut at a word. */
export const MAX_TITLE_CHARS = 60;
/** Sentences per page when the caller does not say. */
export const DEFAULT_SENTENCES_PER_PAGE = 2;
/** A story longer than this is not a picture book; refusing keeps the sampling prompt small. */
export const MAX_STORY_CHARS = 8_000;

/**
 * The model's answer as a cover title: first line, no surrounding quotes or trailing full stop,
 * at most MAX_TITLE_CHARS (cut at the last space before the limit).
 */
export function cleanTitle(raw: string): string {
  const firstLine = raw.trim().split(/\r?\n/)[0] ?? "";
  const unquoted = firstLine
    .replace(/^title:\s*/i, "")
    .replace(/^["'“”‘’*_]+|["'“”‘’*_]+$/g, "")
    .replace(/\.$/, "")
    .trim();
  if (unquoted.length <= MAX_TITLE_CHARS) return unquoted;
  const cut = unquoted.slice(0, MAX_TITLE_CHARS);
  const lastSpace = cut.lastIndexOf(" ");
  return (lastSpace > 0 ? cut.slice(0, lastSpace) : cut).trimEnd();
}

/** Sentences, keeping their closing punctuation; a text without any is one sentence. */
export function sentencesOf(text: string): string[] {
  return (text.match(/[^.!?]+[.!?]+["'”’)]*|[^.!?]+$/g) ?? [])
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function checkedStory(story: string): string {
  const trimmed = story.trim();
  if (trimmed === "") throw new Error("story is empty: pass the story's text as 'story'");
  if (trimmed.length > MAX_STORY_CHARS) {
    throw new Error(
      `story is ${trimmed.length} characters; a picture book holds at most ${MAX_STORY_CHARS}`,
    );
  }
  return trimmed;
}

export const storytellerPlugin = definePlugin({
  manifest: {
    name: "storyteller",
    display_name: "Storyteller",
    version: "0.1.0",
    description: "Titles picture-book stories and lays them out as pages.",
    author: "Anna examples",
    icon: "📖",
    category: "creative",
    license: "Apache-2.0",
    host_capabilities: ["llm.sample"],
  },
  tools: {
    title_story: {
      description:
        "Give a picture-book story a short, warm title, written by the user's own LLM. Returns {title, model}.",
      parameters: {
        story: p.string({ description: "The story's text." }),
        style: p.string({
          description: "A hint for the title's tone, e.g. 'playful' or 'gentle'.",
          default: "gentle",
        }),
      },
      timeout: 60,
      handler: async ({ story, style }, ctx) => {
        const text = checkedStory(story);
        const answer = await ctx.sampling.createMessage({
          systemPrompt:
            "You title children's picture books. Answer with the title only, at most eight words.",
          prompt: `Title this picture-book story in a ${style} tone:\n${text}`,
          maxTokens: 32,
          temperature: 0.7,
        });
        const title = cleanTitle(answer.content.type === "text" ? answer.content.text : "");
        if (title === "") throw new Error("the model answered without a title; try again");
        return { title, model: answer.model ?? null };
      },
    },
    split_pages: {
      description:
        "Lay a story out as picture-book pages of a few sentences each. Returns {pages, page_count}.",
      parameters: {
        story: p.string({ description: "The story's text." }),
        sentences_per_page: p.integer({
          description: "Sentences on each page (1–6).",
          default: DEFAULT_SENTENCES_PER_PAGE,
        }),
      },
      handler: ({ story, sentences_per_page }) => {
        if (sentences_per_page < 1 || sentences_per_page > 6) {
          throw new Error(`sentences_per_page must be between 1 and 6, got ${sentences_per_page}`);
        }
        const sentences = sentencesOf(checkedStory(story));
        const pages: string[] = [];
        for (let i = 0; i < sentences.length; i += sentences_per_page) {
          pages.push(sentences.slice(i, i + sentences_per_page).join(" "));
        }
        return { pages, page_count: pages.length };
      },
    },
  },
});
