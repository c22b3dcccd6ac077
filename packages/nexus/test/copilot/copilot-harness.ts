// Nexus with the LLM gateway on a real database, a filesystem blob store and real HTTP on
// 127.0.0.1, its models answered by a fake OpenAI-compatible provider (`@anna-ai/agent/test-kit`).
// People are made with a PAT; tokens of the other kinds (window, sampling, upload) are minted
// with the server's own keyring, as the runtime and the reverse-RPC router would.
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { randomBytes } from "node:crypto";
import { parseLlmConfig, type LlmConfigInput } from "@anna-ai/agent";
import { type FakeProvider, startFakeProvider } from "@anna-ai/agent/test-kit";
import { onTestFinished } from "vitest";
import { FsBlobStore } from "../../src/blobs/fs-blob-store.js";
import { createChat } from "../../src/chat/chat-deps.js";
import { kekFromBytes, type KeyEncryptionKey } from "../../src/tokens/key-encryption.js";
import { manualClock } from "../../src/core/clock.js";
import type { NexusConfig } from "../../src/core/config.js";
import { resolveConfig } from "../../src/core/config.js";
import type { DatabaseHandle } from "../../src/db/connect.js";
import { openCopilot, type CopilotServices } from "../../src/copilot/copilot-services.js";
import type { HostUploadLimits } from "../../src/copilot/host-upload.js";
import type { AppManifest } from "@anna-ai/app-schema";
import { installApp, putAppVersion } from "../../src/runtime/app-catalog-writes.js";
import { nullLogger } from "../../src/core/logger.js";
import { createNexusRuntime } from "../../src/runtime/nexus-runtime.js";
import type { SigningKeyring } from "../../src/tokens/keyring.js";
import { keyringWindowTokens } from "../../src/runtime/window-token-service.js";
import { mintPat } from "../../src/routes/tokens.js";
import { FAMILY_AUDIENCES } from "../../src/tokens/audiences.js";
import { type Harness, harness } from "../helpers/harness.js";
import { sqlStorage } from "../helpers/storage.js";

export const MODEL = "fake-chat-1";
export const EMBED_MODEL = "fake-embed-1";
export const PROVIDER_KEY = "sk-fake-provider-key-0123456789";

export interface CopilotHttp {
  h: Harness;
  fake: FakeProvider;
  copilot: CopilotServices;
  url: string;
  person(): Promise<{ userId: number; pat: string }>;
  /** A platform admin with a PAT. */
  admin(): Promise<{ userId: number; pat: string; email: string }>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** A window token of `appId` at version 1.0.0 (install it first for sessions). */
  windowToken(userId: number, appId: string, windowUuid?: string): Promise<string>;
  /** Puts an app whose manifest grants `hostApi` and installs it for the user; its id. */
  installApp(userId: number, hostApi: Record<string, unknown>): Promise<string>;
  familyToken(
    family: "sampling" | "upload",
    userId: number,
    toolId: string,
    invokeId: string,
    extra?: Record<string, unknown>,
  ): Promise<string>;
}

let people = 0;
let apps = 0;
const APP_VERSION = "1.0.0";

export async function copilotHttp(
  db: DatabaseHandle,
  opts: {
    config?: Partial<NexusConfig>;
    uploadLimits?: HostUploadLimits;
    /** Serve the app runtime too, its `llm.*` on this gateway. */
    runtime?: boolean;
    /** An images model on the fake provider (`image/generate`); none by default. */
    imageModel?: string;
    /** Wraps the provider calls' `fetch` (to see a model call leave, mid-run). */
    fetch?: typeof globalThis.fetch;
    /**
     * Editable model settings: the fake provider's configuration is the config file's layer,
     * `env` the environment's, and the admin's layer lives in this database.
     */
    models?: { env?: LlmConfigInput; kek?: KeyEncryptionKey };
    /** Chat turns over HTTP on the copilot's gateway (the one the model settings switch). */
    chat?: boolean;
  } = {},
): Promise<CopilotHttp> {
  const fake = await startFakeProvider({ apiKey: PROVIDER_KEY });
  onTestFinished(() => fake.close());
  const clock = manualClock(Date.now());
  let origin = "http://127.0.0.1:0";
  const storage = await sqlStorage(db, clock, {});
  // The blob URLs must point at the server, whose port is known once it listens.
  const root = mkdtempSync(join(tmpdir(), "anna-copilot-blobs-"));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const blobs = new FsBlobStore({ root, origin: () => origin, clock: () => clock.now() });
  await blobs.init();
  const config = resolveConfig(opts.config ?? {});
  const llm: LlmConfigInput = {
    provider: "openai-compatible",
    baseUrl: fake.baseUrl,
    apiKey: PROVIDER_KEY,
    model: MODEL,
    embeddings: { model: EMBED_MODEL, dimensions: 8 },
    ...(opts.imageModel ? { images: { model: opts.imageModel } } : {}),
    maxRetries: 0,
  };
  const copilot = await openCopilot({
    db: db.db,
    llm: parseLlmConfig(llm),
    ...(opts.models
      ? {
          models: {
            kek: opts.models.kek ?? kekFromBytes(randomBytes(32), "test"),
            file: { path: "copilot-test.json", llm },
            env: opts.models.env ?? {},
          },
        }
      : {}),
    imageOrigins: () => [origin],
    quota: config.llmQuota,
    clock: () => clock.now(),
    blobs,
    ...(opts.uploadLimits ? { uploadLimits: opts.uploadLimits } : {}),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  const chat = opts.chat
    ? createChat({
        db: db.db,
        gateway: copilot.gateway,
        clock,
        logger: nullLogger,
        pollMs: 50,
        streamLimits: { keepaliveMs: 100 },
      })
    : undefined;
  if (chat) onTestFinished(() => chat.close());
  const h = harness(db, opts.config ?? {}, {
    clock,
    copilot,
    ...(chat ? { chat } : {}),
    storage: { kv: storage.kv, files: storage.files, blobs },
    ...(opts.runtime
      ? {
          runtime: (keyring: SigningKeyring) =>
            createNexusRuntime({
              db: db.db,
              keyring,
              clock,
              logger: nullLogger,
              storage: storage.kv,
              llm: copilot.runtimeServices(),
            }),
        }
      : {}),
  });
  const server = serve({ fetch: h.app.fetch, port: 0, hostname: "127.0.0.1" });
  onTestFinished(() => new Promise<void>((r) => server.close(() => r())));
  await new Promise<void>((r) => (server.listening ? r() : server.once("listening", () => r())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  origin = url;
  return {
    h,
    fake,
    copilot,
    url,
    async admin() {
      const now = clock.now();
      const email = `admin${++people}@example.com`;
      const user = await h.stores.users.create(
        { email, passwordHash: "x", isVerified: true, isAdmin: true },
        now,
      );
      const { pat } = await mintPat(h.stores, {
        userId: user.id,
        scopes: ["aps:dev"],
        label: "t",
        now,
        ttlMs: 86_400_000,
      });
      return { userId: user.id, pat, email };
    },
    async person() {
      const now = clock.now();
      const user = await h.stores.users.create(
        {
          email: `copilot${++people}@example.com`,
          passwordHash: "x",
          isVerified: true,
          developer: true,
          isAdmin: false,
        },
        now,
      );
      const { pat } = await mintPat(h.stores, {
        userId: user.id,
        scopes: ["aps:dev"],
        label: "t",
        now,
        ttlMs: 86_400_000,
      });
      return { userId: user.id, pat };
    },
    post(path, body, headers = {}) {
      return fetch(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    },
    windowToken(userId, appId, windowUuid = `win_${people}`) {
      return keyringWindowTokens(h.keyring).mint({
        userId: String(userId),
        appId,
        windowUuid,
        versionId: APP_VERSION,
      });
    },
    async installApp(userId, hostApi) {
      const manifest = {
        name: "Copilot test",
        ui: { host_api: hostApi },
      } as unknown as AppManifest;
      const slug = `copilot-app-${++apps}`;
      const { appId } = await putAppVersion(
        db.db,
        { slug, version: APP_VERSION, name: slug, manifest },
        clock.now(),
      );
      await installApp(db.db, { userId, appId, version: APP_VERSION }, clock.now());
      return String(appId);
    },
    familyToken(family, userId, toolId, invokeId, extra = {}) {
      return h.keyring.mint({
        audience: FAMILY_AUDIENCES[family],
        userId: String(userId),
        toolId,
        invokeId,
        ttlSeconds: 600,
        extra,
      });
    },
  };
}

/** The frames of an SSE body, parsed from its `data:` lines, until the stream ends. */
export async function sseFrames(res: Response): Promise<Record<string, unknown>[]> {
  const frames: Record<string, unknown>[] = [];
  for await (const frame of sseStream(res)) frames.push(frame);
  return frames;
}

export async function* sseStream(res: Response): AsyncGenerator<Record<string, unknown>> {
  if (!res.body) throw new Error(`no body (HTTP ${res.status})`);
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trimStart())
        .join("\n");
      if (data !== "") yield JSON.parse(data) as Record<string, unknown>;
    }
  }
}
