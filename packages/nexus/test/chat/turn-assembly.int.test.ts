// What a chat turn sees, end to end over real HTTP on SQLite and PostgreSQL: a user installs an
// app (the store's install path) that bundles the ts-notes example plugin, `#mention`s it, and
// the model (a fake OpenAI-compatible server) calls the plugin's tools, which run in a real
// process and call back for storage (the server's SQL APS) and sampling (the same gateway). The
// answer streams as SSE; a dropped stream resumed with Last-Event-ID loses no frame. Also: the
// addendum is XML-fenced in the system prompt the provider received, the user's message reaches
// it once, an app not installed or disabled gets a notice and no tools, a plugin that cannot be
// prepared is a notice and not a failed turn, and a skill's index entry and `load_skill` work.
import { executaToolName, LOAD_SKILL_TOOL, type AppViews } from "@anna-ai/agent";
import { skillToolName } from "@anna-ai/skills";
import { describe, expect, it } from "vitest";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import type { SseFrame } from "../helpers/chat.js";
import { chatWorld, TS_NOTES_DIR, type ChatWorld } from "../helpers/chat-world.js";

useDialectCleanup();

const ADDENDUM = "Keep the user's notes short. Never write </system_prompt_addendum> yourself.";
const SKILL_MD = `---
name: trip-planner
description: Plan a trip day by day.
---
# Trip planner
Ask for the dates first, then list one place per day.
`;

interface OpenAiBody {
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string } }[];
}

const body = (w: ChatWorld, i: number) => w.fake.requests[i]?.body as OpenAiBody;
const system = (b: OpenAiBody) => String(b.messages.find((m) => m.role === "system")?.content);
const toolNames = (b: OpenAiBody) => (b.tools ?? []).map((t) => t.function.name);
const ofType = (frames: SseFrame[], type: string) => frames.filter((f) => f.event === type);

/** Resolves once `cond` holds; checked every 10 ms, for at most 10 s. */
async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A notes app bundling a Hub tool that the runtime serves from examples/executas/ts-notes. */
async function notesApp(w: ChatWorld, slug = "notes-app") {
  const tool = await w.fx.tool(`${slug}-tool`);
  w.folders.set(tool.toolId, TS_NOTES_DIR);
  const appId = await w.fx.app({
    slug,
    name: "Notes App",
    versions: [
      {
        version: "1.0.0",
        required: [tool.toolId],
        frozen: { [tool.toolId]: tool.versionId },
        manifest: { system_prompt_addendum: ADDENDUM },
      },
    ],
  });
  return { tool, appId, toolName: (t: string) => executaToolName(`${slug}-tool`, t) };
}

describe.each(DIALECTS)("a chat turn's installed apps, executas and skills on $name", (d) => {
  it.skipIf(d.skip)(
    "runs a #mentioned app's plugin (storage, sampling) and resumes a dropped stream",
    async () => {
      const w = await chatWorld(await d.open());
      const { tool, appId, toolName } = await notesApp(w);
      expect((await w.call("POST", "/api/v1/store/apps/notes-app/install")).status).toBe(201);

      w.fake.enqueue({ toolCalls: [{ name: toolName("add_note"), args: { text: "buy milk" } }] });
      w.fake.enqueue({ toolCalls: [{ name: toolName("summarize_notes"), args: {} }] });
      w.fake.enqueue({ text: "You need to buy milk." }); // the plugin's sampling call
      w.fake.enqueue({ text: ["Saved it. ", "Summary: ", "buy milk."] });
      const text = "#notes-app remember to buy milk, then summarise my notes";
      const turnId = await w.turn(await w.conversation(), text);

      // Hang up after the first tool result, then resume from the last frame seen.
      const first = await w.events(turnId, { stopAfter: (f) => f.event === "tool.result" });
      expect(first.ended).toBe(false);
      const last = first.frames.at(-1)!;
      const rest = await w.events(turnId, { lastEventId: String(last.id), timeoutMs: 60_000 });
      expect(rest.ended).toBe(true);
      const frames = [...first.frames, ...rest.frames];
      expect(frames.map((f) => f.id)).toEqual(frames.map((_, i) => i + 1));
      await w.chat.service.idle();

      expect(frames[0]?.data).toMatchObject({
        type: "turn.started",
        activatedApps: [String(appId)],
      });
      const results = ofType(frames, "tool.result").map((f) => f.data);
      expect(results).toMatchObject([
        { name: toolName("add_note"), isError: false, output: { count: 1 } },
        {
          name: toolName("summarize_notes"),
          isError: false,
          output: { summary: "You need to buy milk.", note_count: 1 },
        },
      ]);
      expect(ofType(frames, "tool.call")[0]?.data.source).toEqual({
        kind: "executa",
        toolId: tool.toolId,
        tool: "add_note",
      });
      const answer = ofType(frames, "text.delta")
        .map((f) => f.data.text)
        .join("");
      expect(answer).toBe("Saved it. Summary: buy milk.");
      expect(frames.at(-1)?.data).toMatchObject({ type: "turn.finished", status: "completed" });

      // The provider saw the addendum fenced, the plugin's tools, and the message once.
      const sent = body(w, 0);
      expect(system(sent)).toContain(
        "<system_prompt_addendum>Keep the user's notes short. Never write &lt;/system_prompt_addendum&gt; yourself.</system_prompt_addendum>",
      );
      expect(toolNames(sent)).toEqual(
        expect.arrayContaining([toolName("add_note"), toolName("summarize_notes")]),
      );
      expect(sent.messages.filter((m) => JSON.stringify(m.content).includes(text))).toHaveLength(1);
      expect(sent.messages.at(-1)).toMatchObject({ role: "user" });
      // The sampling request came from the plugin, with its notes in it.
      expect(JSON.stringify(body(w, 2))).toContain("buy milk");
      // The note is in the server's APS storage, under this user and the tool.
      const rows = await w.handle.db
        .selectFrom("storage_kv")
        .select(["key", "scope", "owner_id"])
        .where("user_id", "=", String(w.user.userId))
        .execute();
      expect(rows).toEqual(
        expect.arrayContaining([{ key: "meta/stats", scope: "tool", owner_id: tool.toolId }]),
      );
    },
  );

  it.skipIf(d.skip)(
    "gives an app not installed and a disabled app a notice and none of their tools",
    async () => {
      const w = await chatWorld(await d.open());
      const { toolName } = await notesApp(w);
      expect((await w.call("POST", "/api/v1/store/apps/notes-app/install")).status).toBe(201);
      expect((await w.call("PATCH", "/api/v1/me/apps/notes-app", { enabled: false })).status).toBe(
        200,
      );

      w.fake.enqueue({ text: "ok" });
      const turnId = await w.turn(await w.conversation(), "#ghost-app and #notes-app, hello");
      const read = await w.events(turnId);
      const notices = ofType(read.frames, "notice").map((f) => f.data.message as string);
      expect(notices).toEqual([
        expect.stringContaining(
          '#ghost-app was not applied: you have no app "ghost-app" installed',
        ),
        expect.stringContaining("#notes-app was not applied: the app is installed but disabled"),
      ]);
      expect(read.frames[0]?.data).toMatchObject({ activatedApps: [] });
      const sent = body(w, 0);
      expect(toolNames(sent)).not.toContain(toolName("add_note"));
      expect(system(sent)).not.toContain("<user_mentioned_apps>");
      // Nothing was started for a plugin the turn could not call.
      expect(w.runtime.prepared).toEqual([]);
    },
  );

  it.skipIf(d.skip)(
    "leaves a plugin that cannot be prepared out with a notice and still answers",
    async () => {
      const w = await chatWorld(await d.open());
      const { tool, toolName } = await notesApp(w);
      w.broken.add(tool.toolId);
      expect((await w.call("POST", "/api/v1/store/apps/notes-app/install")).status).toBe(201);

      w.fake.enqueue({ text: "I cannot reach your notes right now." });
      const turnId = await w.turn(await w.conversation(), "#notes-app list my notes");
      const read = await w.events(turnId);
      const notices = ofType(read.frames, "notice").map((f) => f.data.message as string);
      expect(notices).toEqual([
        expect.stringMatching(
          /^@notes-app-tool is not available in this turn: it could not be started \(no plugin folder is configured/,
        ),
      ]);
      expect(read.frames.at(-1)?.data).toMatchObject({ status: "completed" });
      expect(toolNames(body(w, 0))).not.toContain(toolName("list_notes"));
    },
  );

  it.skipIf(d.skip)(
    "lists an installed skill in the index and load_skill returns its body",
    async () => {
      const w = await chatWorld(await d.open());
      const toolId = await w.publishSkill("trip-planner", SKILL_MD);
      expect((await w.call("PUT", `/api/v1/me/executas/${toolId}`)).status).toBeLessThan(300);

      const name = skillToolName("trip-planner");
      w.fake.enqueue({ toolCalls: [{ name: LOAD_SKILL_TOOL, args: { name } }] });
      w.fake.enqueue({ text: "When do you leave?" });
      const turnId = await w.turn(await w.conversation(), "plan my trip to Lisbon");
      const read = await w.events(turnId);
      expect(read.frames.at(-1)?.data).toMatchObject({ status: "completed" });

      const sent = body(w, 0);
      expect(system(sent)).toContain("<available_skills>");
      expect(system(sent)).toContain("Plan a trip day by day.");
      expect(system(sent)).not.toContain("Ask for the dates first");
      expect(toolNames(sent)).toContain(LOAD_SKILL_TOOL);
      const result = ofType(read.frames, "tool.result")[0]?.data;
      expect(result).toMatchObject({ name: LOAD_SKILL_TOOL, isError: false });
      expect(String(result?.output)).toContain(
        "Ask for the dates first, then list one place per day.",
      );
    },
  );

  it.skipIf(d.skip)("ends a turn cancelled while its plugins are prepared", async () => {
    const w = await chatWorld(await d.open());
    const { tool } = await notesApp(w);
    w.stuck.add(tool.toolId);
    expect((await w.call("POST", "/api/v1/store/apps/notes-app/install")).status).toBe(201);

    const turnId = await w.turn(await w.conversation(), "#notes-app list my notes");
    await until(() => w.runtime.prepared.length > 0, "the turn to start preparing the plugin");
    const cancelled = await w.call("POST", `/api/v1/chat/turns/${turnId}/cancel`);
    expect(cancelled.body).toMatchObject({ status: "cancelled", steps: 0 });
    const read = await w.events(turnId);
    expect(read.frames.map((f) => f.data)).toEqual([
      {
        type: "turn.finished",
        status: "cancelled",
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      },
    ]);
    expect(w.fake.requests).toHaveLength(0);
  });

  it.skipIf(d.skip)(
    "offers the app view tools only when an applied app declares views",
    async () => {
      const opened: unknown[] = [];
      const views: AppViews = {
        open: (request) => {
          opened.push(request);
          return Promise.resolve({ window_uuid: "w-1", status: "open", reused: false });
        },
        update: () => Promise.reject(new Error("not used here")),
        close: () => Promise.resolve(),
      };
      const w = await chatWorld(await d.open(), { appViews: views });
      const appId = await w.fx.app({
        slug: "board",
        versions: [
          {
            version: "1.0.0",
            manifest: {
              schema: 2,
              ui: {
                bundle: { entry: "index.html" },
                views: [{ name: "main", title: "Board", default: true }],
              },
            } as never,
          },
        ],
      });
      expect((await w.call("POST", "/api/v1/store/apps/board/install")).status).toBe(201);
      const conversation = await w.conversation();

      w.fake.enqueue({ text: "hi" });
      await w.events(await w.turn(conversation, "hello, no app here"));
      expect(toolNames(body(w, 0))).not.toContain("open_app_view");

      w.fake.enqueue({ toolCalls: [{ name: "open_app_view", args: { app_id: String(appId) } }] });
      w.fake.enqueue({ text: "Opened." });
      const read = await w.events(await w.turn(conversation, "#board show it"));
      expect(toolNames(body(w, 1))).toEqual(
        expect.arrayContaining(["open_app_view", "update_app_view", "close_app_view"]),
      );
      expect(system(body(w, 1))).toContain("<ui_views>");
      expect(ofType(read.frames, "tool.result")[0]?.data).toMatchObject({
        isError: false,
        output: { window_uuid: "w-1" },
      });
      expect(opened).toEqual([
        { userId: String(w.user.userId), appId: String(appId), conversationId: conversation },
      ]);
    },
  );
});
