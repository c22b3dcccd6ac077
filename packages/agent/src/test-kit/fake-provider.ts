// A fake model provider for tests: a real HTTP server on 127.0.0.1 that speaks OpenAI Chat
// Completions, OpenAI Responses, Anthropic Messages, OpenAI embeddings, image generations and image
// edits (multipart form data, as OpenAI takes them) on their real paths, answers each request with the next scripted reply, and records what it got
// (method, path, headers with the auth, the JSON body) so tests assert what was sent.
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { solidPng } from "@anna-ai/executa-host";
import { anthropicError, renderAnthropicMessage } from "./anthropic-wire.js";
import { openAiError, renderChatCompletion } from "./openai-chat-wire.js";
import { renderResponses } from "./openai-responses-wire.js";
import type { ScriptedReply } from "./script.js";
import { DEFAULT_USAGE } from "./script.js";

/** The biggest request body the fake reads; past it, 413. */
export const FAKE_PROVIDER_MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Vector size when an embeddings request names no `dimensions`. */
export const FAKE_EMBEDDING_DIMENSIONS = 8;

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-case names, as Node gives them. */
  headers: Readonly<Record<string, string>>;
  /** The JSON body; for multipart (image edits) its fields, files as `FakeUploadedFile`s. */
  body: unknown;
}

/** A file part of a multipart request, as the fake read it. */
export interface FakeUploadedFile {
  mediaType: string;
  sizeBytes: number;
  sha256: string;
}

export interface FakeProviderOptions {
  /**
   * When set, requests must carry it (`Authorization: Bearer …` or `x-api-key: …`); others get
   * the provider's 401.
   */
  apiKey?: string;
  /**
   * Default true. Benchmarks send thousands of requests and read none back: false keeps
   * `requests` empty so memory stays flat.
   */
  recordRequests?: boolean;
}

export interface FakeProvider {
  /** `http://127.0.0.1:<port>/v1`: the base URL every provider package takes. */
  readonly baseUrl: string;
  readonly requests: readonly RecordedRequest[];
  /** Adds replies; each request takes the next one (an empty queue answers `{text: "ok"}`). */
  enqueue(...replies: ScriptedReply[]): void;
  /** Resolves when the client of a stalled response has gone away (cancellation reached us). */
  waitForStalledDisconnect(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

type Route = "chat" | "responses" | "anthropic" | "embeddings" | "images" | "image-edits";

const ROUTES: Readonly<Record<string, Route>> = {
  "/v1/chat/completions": "chat",
  "/v1/responses": "responses",
  "/v1/messages": "anthropic",
  "/v1/embeddings": "embeddings",
  "/v1/images/generations": "images",
  "/v1/images/edits": "image-edits",
};

export async function startFakeProvider(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  const stalled = new Set<ServerResponse>();
  let disconnects = 0;
  const disconnectWaiters: (() => void)[] = [];
  let seq = 0;
  let closing: Promise<void> | undefined;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify(openAiError(500, `fake provider failed: ${String(error)}`)));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    let route: Route | "stall" | undefined = ROUTES[path];
    const raw = await readBody(req);
    if (raw === undefined) {
      res.writeHead(413, { "content-type": "application/json" });
      res.end(JSON.stringify(openAiError(413, "request body too large")));
      return;
    }
    let body: unknown = null;
    const contentType = req.headers["content-type"] ?? "";
    if (contentType.startsWith("multipart/form-data")) {
      body = await readMultipart(raw, contentType);
    } else {
      try {
        body = raw.length > 0 ? JSON.parse(raw.toString("utf8")) : null;
      } catch {
        body = raw.toString("utf8");
      }
    }
    if (options.recordRequests !== false) {
      requests.push({ method: req.method ?? "", path, headers: flatHeaders(req), body });
    }
    const anthropic = route === "anthropic";
    const fail = (status: number, message: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(
        JSON.stringify(anthropic ? anthropicError(status, message) : openAiError(status, message)),
      );
    };
    if (route === undefined || req.method !== "POST") {
      fail(
        404,
        `no route ${req.method ?? ""} ${path}; the fake serves POST ${Object.keys(ROUTES).join(", ")}`,
      );
      return;
    }
    if (options.apiKey !== undefined && presentedKey(req) !== options.apiKey) {
      fail(401, "invalid api key");
      return;
    }
    const reply = queue.shift() ?? { text: "ok" };
    seq += 1;
    if (reply.error !== undefined) {
      fail(reply.error.status, reply.error.message ?? `scripted HTTP ${reply.error.status}`, {
        ...reply.error.headers,
      });
      return;
    }
    const json = (body ?? {}) as Record<string, unknown>;
    let finished = true;
    // A stalled non-streaming answer is a request the provider never answers.
    if (reply.stall === true && json["stream"] !== true) route = "stall";
    switch (route) {
      case "stall":
        finished = false;
        break;
      case "chat":
        finished = renderChatCompletion(reply, json, res, seq);
        break;
      case "responses":
        finished = renderResponses(reply, json, res, seq);
        break;
      case "anthropic":
        finished = renderAnthropicMessage(reply, json, res, seq);
        break;
      case "embeddings":
        renderEmbeddings(reply, json, res);
        break;
      case "images":
      case "image-edits":
        renderImages(reply, json, res);
        break;
    }
    if (!finished) {
      stalled.add(res);
      res.on("close", () => {
        stalled.delete(res);
        disconnects += 1;
        for (const wake of disconnectWaiters.splice(0)) wake();
      });
    }
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    waitForStalledDisconnect(timeoutMs = 5_000) {
      if (disconnects > 0) {
        disconnects -= 1;
        return Promise.resolve();
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no stalled stream was disconnected within ${timeoutMs} ms`)),
          timeoutMs,
        );
        disconnectWaiters.push(() => {
          clearTimeout(timer);
          disconnects -= 1;
          resolve();
        });
      });
    },
    close: () => {
      // Idempotent: a test may close the fake early to simulate a provider that went away.
      closing ??= new Promise<void>((resolve, reject) => {
        for (const res of stalled) res.destroy();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
      return closing;
    },
  };
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > FAKE_PROVIDER_MAX_BODY_BYTES) over = true;
      else parts.push(chunk);
    });
    req.on("end", () => resolve(over ? undefined : Buffer.concat(parts)));
    req.on("error", reject);
  });
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function presentedKey(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === "string" && auth.startsWith("Bearer ")) return auth.slice("Bearer ".length);
  const key = req.headers["x-api-key"];
  return typeof key === "string" ? key : undefined;
}

/** A deterministic unit-ish vector per input, so tests can tell inputs apart. */
function fakeVector(text: string, dimensions: number): number[] {
  const digest = createHash("sha256").update(text).digest();
  return Array.from(
    { length: dimensions },
    (_, i) => ((digest[i % digest.length] ?? 0) - 128) / 128,
  );
}

function renderEmbeddings(
  reply: ScriptedReply,
  body: Record<string, unknown>,
  res: ServerResponse,
) {
  const input = Array.isArray(body["input"]) ? (body["input"] as unknown[]) : [body["input"]];
  const dimensions =
    typeof body["dimensions"] === "number" ? body["dimensions"] : FAKE_EMBEDDING_DIMENSIONS;
  const vectors = reply.embeddings ?? input.map((text) => fakeVector(String(text), dimensions));
  const tokens = reply.usage?.inputTokens ?? DEFAULT_USAGE.inputTokens;
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      object: "list",
      data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
      model: typeof body["model"] === "string" ? body["model"] : "fake-embedding",
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    }),
  );
}

/**
 * The form's fields: text as strings (`n` as a number, as OpenAI reads it), files as their type,
 * size and hash; a repeated field (`image[]` or several `image`) becomes a list.
 */
async function readMultipart(raw: Buffer, contentType: string): Promise<Record<string, unknown>> {
  const form = await new Response(new Uint8Array(raw), {
    headers: { "content-type": contentType },
  }).formData();
  const out: Record<string, unknown> = {};
  for (const [rawName, value] of form.entries()) {
    const name = rawName.replace(/\[\]$/, "");
    let parsed: unknown;
    if (typeof value === "string") {
      parsed = name === "n" && /^\d+$/.test(value) ? Number(value) : value;
    } else {
      const bytes = Buffer.from(await value.arrayBuffer());
      parsed = {
        mediaType: value.type,
        sizeBytes: bytes.byteLength,
        sha256: createHash("sha256").update(bytes).digest("hex"),
      } satisfies FakeUploadedFile;
    }
    const prior = out[name];
    out[name] =
      prior === undefined ? parsed : [...(Array.isArray(prior) ? prior : [prior]), parsed];
  }
  return out;
}

function renderImages(reply: ScriptedReply, body: Record<string, unknown>, res: ServerResponse) {
  const n = typeof body["n"] === "number" ? body["n"] : 1;
  const images =
    reply.images ??
    Array.from({ length: n }, (_, i) =>
      solidPng(4, 4, { r: 40 * i, g: 120, b: 200 }).toString("base64"),
    );
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({ created: 1_700_000_000, data: images.map((b64_json) => ({ b64_json })) }),
  );
}
