// Chat turns for tests: a Nexus harness on a real database with the chat service on a gateway
// pointed at a fake OpenAI-compatible provider (real HTTP, real wire format), listening on
// 127.0.0.1, and an SSE reader that parses frames as they arrive and can hang up mid-stream.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { attachmentTools, createLlmGateway, parseLlmConfig, type LlmGateway } from "@anna-ai/agent";
import { startFakeProvider, type FakeProvider } from "@anna-ai/agent/test-kit";
import { onTestFinished } from "vitest";
import { FsBlobStore } from "../../src/blobs/fs-blob-store.js";
import { ChatAttachments, type ChatAttachmentLimits } from "../../src/chat/chat-attachments.js";
import { createChat, type ChatDeps } from "../../src/chat/chat-deps.js";
import type { PromptAssembler, ToolsFor } from "../../src/chat/chat-service.js";
import { manualClock } from "../../src/core/clock.js";
import type { DatabaseHandle } from "../../src/db/connect.js";
import { harness, type Harness } from "./harness.js";
import { hubHttp, type HubHttp } from "./hub-http.js";

export interface ChatHarness {
  h: Harness;
  http: HubHttp;
  fake: FakeProvider;
  gateway: LlmGateway;
  chat: ChatDeps;
  /** With `attachments` asked for: the store, on a filesystem blob store in a temp folder. */
  attachments?: ChatAttachments;
  /** …and its blob store, to see which bytes are kept. */
  blobs?: FsBlobStore;
}

export async function chatHarness(
  handle: DatabaseHandle,
  opts: {
    toolsFor?: ToolsFor;
    maxSteps?: number;
    maxFramesPerTurn?: number;
    maxRunningTurnsPerUser?: number;
    /** The prompt assembler, built on the harness's gateway (plugins sample through it). */
    assemble?: (gateway: LlmGateway) => PromptAssembler;
    /** Chat attachments with these limits; the turn's tools are then doc_read and sheet_read. */
    attachments?: Partial<ChatAttachmentLimits>;
  } = {},
): Promise<ChatHarness> {
  const fake = await startFakeProvider();
  onTestFinished(() => fake.close());
  const gateway = createLlmGateway({
    config: parseLlmConfig({
      provider: "openai-compatible",
      baseUrl: fake.baseUrl,
      model: "llama-test",
      apiKey: "sk-test",
      maxRetries: 0,
    }),
  });
  const clock = manualClock();
  let attachments: ChatAttachments | undefined;
  let blobs: FsBlobStore | undefined;
  if (opts.attachments) {
    const root = mkdtempSync(join(tmpdir(), "anna-chat-attachments-"));
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    blobs = new FsBlobStore({
      root,
      origin: () => "http://127.0.0.1:8080",
      clock: () => clock.now(),
    });
    await blobs.init();
    attachments = new ChatAttachments(handle.db, blobs, () => clock.now(), opts.attachments);
  }
  const store = attachments;
  const toolsFor: ToolsFor | undefined =
    opts.toolsFor ?? (store ? () => attachmentTools({ attachment: store.lookup }) : undefined);
  const chat = createChat({
    db: handle.db,
    gateway,
    clock,
    logger: { log: () => {} },
    pollMs: 50,
    ...(toolsFor ? { toolsFor } : {}),
    ...(attachments ? { attachments } : {}),
    ...(opts.assemble ? { assemble: opts.assemble(gateway) } : {}),
    ...(opts.maxSteps ? { maxSteps: opts.maxSteps } : {}),
    ...(opts.maxFramesPerTurn ? { maxFramesPerTurn: opts.maxFramesPerTurn } : {}),
    ...(opts.maxRunningTurnsPerUser ? { maxRunningTurnsPerUser: opts.maxRunningTurnsPerUser } : {}),
    streamLimits: { keepaliveMs: 100 },
  });
  onTestFinished(() => chat.close());
  const h = harness(handle, {}, { clock, chat });
  const http = await hubHttp(h);
  return {
    h,
    http,
    fake,
    gateway,
    chat,
    ...(attachments ? { attachments } : {}),
    ...(blobs ? { blobs } : {}),
  };
}

export interface SseFrame {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

export interface SseRead {
  status: number;
  frames: SseFrame[];
  /** Comment lines seen (`: connected`, `: keepalive`). */
  comments: string[];
  /** True when the server ended the stream; false when we hung up. */
  ended: boolean;
}

/**
 * Reads a turn's event stream until the server ends it, or until `stopAfter` says to hang up
 * (the fetch is aborted, as a dropped connection would be).
 */
export async function readEvents(
  url: string,
  pat: string,
  opts: {
    lastEventId?: string;
    after?: string;
    stopAfter?: (frame: SseFrame) => boolean;
    /** Hang up once a comment line with this text arrives (e.g. `keepalive`). */
    untilComment?: string;
    timeoutMs?: number;
  } = {},
): Promise<SseRead> {
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(new Error(`the stream did not end within ${opts.timeoutMs ?? 10_000} ms`)),
    opts.timeoutMs ?? 10_000,
  );
  const u = new URL(url);
  if (opts.after !== undefined) u.searchParams.set("after", opts.after);
  const headers: Record<string, string> = {
    authorization: `Bearer ${pat}`,
    accept: "text/event-stream",
  };
  if (opts.lastEventId !== undefined) headers["last-event-id"] = opts.lastEventId;
  const res = await fetch(u, { headers, signal: controller.signal });
  const out: SseRead = { status: res.status, frames: [], comments: [], ended: false };
  if (res.status !== 200 || !res.body) {
    clearTimeout(timer);
    await res.body?.cancel();
    return out;
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        out.ended = true;
        return out;
      }
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const frame = parseBlock(block, out.comments);
        if (opts.untilComment !== undefined && out.comments.includes(opts.untilComment)) {
          controller.abort();
          return out;
        }
        if (frame === undefined) continue;
        out.frames.push(frame);
        if (opts.stopAfter?.(frame)) {
          controller.abort();
          return out;
        }
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Every frame in a whole stream's text (comments skipped). */
export function parseSseText(text: string): SseFrame[] {
  return text
    .split("\n\n")
    .map((block) => parseBlock(block, []))
    .filter((f): f is SseFrame => f !== undefined);
}

function parseBlock(block: string, comments: string[]): SseFrame | undefined {
  let id: number | undefined;
  let event = "message";
  let data = "";
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) comments.push(line.slice(1).trim());
    else if (line.startsWith("id: ")) id = Number(line.slice(4));
    else if (line.startsWith("event: ")) event = line.slice(7);
    else if (line.startsWith("data: ")) data += line.slice(6);
  }
  if (id === undefined) return undefined;
  return { id, event, data: JSON.parse(data) as Record<string, unknown> };
}

/** A promise and its resolver: a test tool waits on it until the test lets it answer. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}
