// ts-notes: a small, friendly Executa v2 plugin. Notes live in Anna Persistent Storage (APS,
// scope "tool"); a stats record shows optimistic concurrency (etag + if_match, retried on
// -32023); `summarize_notes` asks the host's LLM through sampling; `echo` needs nothing.

import { definePlugin, p, StorageError, type ToolContext } from "@anna-ai/executa-sdk";

/** Every note is one key under this prefix: `notes/<id>`. */
const NOTE_PREFIX = "notes/";
/** A shared counter updated read-modify-write, so concurrent adds must not lose counts. */
const STATS_KEY = "meta/stats";
/** Attempts at the stats update before giving up on a busy key. */
const MAX_STATS_ATTEMPTS = 5;
/** How many notes `summarize_notes` reads at most. */
const SUMMARY_NOTE_LIMIT = 50;
/** Only a short, redacted preview of a credential ever leaves the plugin. */
const PREVIEW_CHARS = 4;

interface Note {
  id: string;
  text: string;
  tags: string[];
  created_at: string;
}

interface Stats {
  count: number;
  last_added_at: string | null;
}

function newNoteId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Read-modify-write of the stats record; a concurrent writer makes the host answer -32023 and
 * we re-read. APS has no if-none-match (R43), so only the very first write is unconditional.
 */
async function bumpStats(ctx: ToolContext, addedAt: string): Promise<Stats> {
  for (let attempt = 1; ; attempt++) {
    const current = await ctx.storage.get<Stats>(STATS_KEY);
    const next: Stats = { count: (current.value?.count ?? 0) + 1, last_added_at: addedAt };
    try {
      await ctx.storage.set(STATS_KEY, next, { ifMatch: current.exists ? current.etag : null });
      return next;
    } catch (error) {
      const conflict = error instanceof StorageError && error.code === -32023;
      if (!conflict || attempt >= MAX_STATS_ATTEMPTS) throw error;
      ctx.log.info("stats changed underneath us; retrying", { attempt });
    }
  }
}

async function readNotes(ctx: ToolContext, limit: number): Promise<Note[]> {
  const listing = await ctx.storage.list({ prefix: NOTE_PREFIX, limit });
  const notes: Note[] = [];
  for (const item of listing.items) {
    const entry = await ctx.storage.get<Note>(item.key);
    if (entry.exists && entry.value !== null) notes.push(entry.value);
  }
  return notes.sort((a, b) => a.created_at.localeCompare(b.created_at));
}

function preview(secret: string | undefined): string | null {
  if (secret === undefined || secret === "") return null;
  return secret.length <= PREVIEW_CHARS * 2
    ? "…"
    : `${secret.slice(0, PREVIEW_CHARS)}…${secret.slice(-PREVIEW_CHARS)}`;
}

export const notesPlugin = definePlugin({
  manifest: {
    name: "ts-notes",
    display_name: "Notes",
    version: "0.1.0",
    description: "Keep short notes for the user and summarise them on request.",
    author: "Anna examples",
    icon: "🗒️",
    category: "productivity",
    license: "Apache-2.0",
    host_capabilities: ["llm.sample", "aps.kv"],
    credentials: [
      {
        name: "NOTES_API_KEY",
        display_name: "Notes API key",
        description: "Optional. Shown (redacted) by `echo` to demonstrate credential injection.",
        required: false,
        sensitive: true,
      },
    ],
  },
  tools: {
    add_note: {
      description: "Save a short note for the user. Returns the note id and how many notes exist.",
      parameters: {
        text: p.string({ description: "The note's text." }),
        tags: p.array(p.string(), { description: "Optional labels.", required: false }),
      },
      handler: async ({ text, tags }, ctx) => {
        const trimmed = text.trim();
        if (trimmed === "") throw new Error("a note needs some text");
        const note: Note = {
          id: newNoteId(),
          text: trimmed,
          tags: tags ?? [],
          created_at: new Date().toISOString(),
        };
        await ctx.storage.set(`${NOTE_PREFIX}${note.id}`, note);
        const stats = await bumpStats(ctx, note.created_at);
        return { id: note.id, count: stats.count };
      },
    },
    list_notes: {
      description: "List the user's notes, oldest first, optionally only those with a tag.",
      parameters: {
        tag: p.string({ description: "Only notes with this tag.", required: false }),
        limit: p.integer({ description: "Most notes to return.", default: 20 }),
      },
      handler: async ({ tag, limit }, ctx) => {
        const notes = await readNotes(ctx, Math.min(Math.max(limit, 1), 100));
        const selected =
          tag === undefined ? notes : notes.filter((note) => note.tags.includes(tag));
        const stats = await ctx.storage.get<Stats>(STATS_KEY);
        return { notes: selected, total: stats.value?.count ?? notes.length };
      },
    },
    summarize_notes: {
      description: "Summarise the user's notes in a few sentences using the user's own LLM.",
      parameters: {
        max_tokens: p.integer({ description: "Length budget of the summary.", default: 300 }),
      },
      timeout: 120,
      handler: async ({ max_tokens }, ctx) => {
        const notes = await readNotes(ctx, SUMMARY_NOTE_LIMIT);
        if (notes.length === 0) return { summary: "There are no notes yet.", note_count: 0 };
        const listing = notes.map((note, i) => `${i + 1}. ${note.text}`).join("\n");
        const result = await ctx.sampling.createMessage({
          systemPrompt: "You summarise personal notes briefly and kindly.",
          prompt: `Summarise these notes in at most three sentences:\n${listing}`,
          maxTokens: max_tokens,
        });
        return {
          summary: result.content.text,
          note_count: notes.length,
          model: result.model ?? null,
        };
      },
    },
    echo: {
      description: "Echo text back (no host calls). Also says whether NOTES_API_KEY is configured.",
      parameters: { text: p.string({ description: "Anything." }) },
      handler: ({ text }, ctx) => ({ text, api_key: preview(ctx.credential("NOTES_API_KEY")) }),
    },
  },
});
