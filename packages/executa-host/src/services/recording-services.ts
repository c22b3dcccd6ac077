// Test double: every host service records its calls and answers with a canned, well-formed wire
// result (or whatever `respond` returns). Not an offline implementation: nothing is stored.
import type { HostServices } from "./host-services.js";
import type { ServiceContext } from "./service-context.js";

export type ServiceName = keyof HostServices;

export interface RecordedCall {
  service: ServiceName;
  /** The interface method, e.g. `createMessage`, `sessionRun`, `uploadBegin`. */
  method: string;
  params: Record<string, unknown>;
  ctx: ServiceContext;
}

export interface RecordingServicesOptions {
  /**
   * Answer a call yourself: return a result, throw (an RpcError for a catalog failure), or
   * return `undefined` to get the canned result.
   */
  respond?: (call: RecordedCall) => unknown;
}

export interface RecordingServices extends HostServices {
  readonly calls: RecordedCall[];
  /** The calls made to one service (and method). */
  callsTo(service: ServiceName, method?: string): RecordedCall[];
}

const FAR_FUTURE_ISO = "2099-01-01T00:00:00.000Z";

const CANNED: {
  [S in ServiceName]: Record<
    string,
    (params: Record<string, unknown>, ctx: ServiceContext) => unknown
  >;
} = {
  sampling: {
    createMessage: () => cannedCompletion(),
  },
  storage: {
    get: () => ({ value: null, exists: false, etag: null }),
    set: () => ({ etag: "etag-1", generation: 1, size_bytes: 0 }),
    delete: () => ({ deleted: true }),
    list: () => ({ items: [], next_cursor: null }),
  },
  files: {
    uploadBegin: (p) => ({
      upload_id: "upload-1",
      put_url: `https://files.invalid/put/${String(p["path"])}`,
      headers: { "Content-Type": String(p["content_type"] ?? "application/octet-stream") },
      expires_at: FAR_FUTURE_ISO,
    }),
    uploadComplete: (p) => ({
      path: String(p["path"]),
      etag: "etag-1",
      size_bytes: Number(p["size_bytes"] ?? 0),
    }),
    downloadUrl: (p) => {
      const url = `https://files.invalid/get/${String(p["path"])}`;
      return { get_url: url, url, expires_at: FAR_FUTURE_ISO };
    },
    list: () => ({ items: [], next_cursor: null }),
    delete: () => ({ deleted: true }),
  },
  agent: {
    sessionCreate: () => ({
      app_session_uuid: "aps_recording",
      thread_id: "thread-1",
      agent_submode: "auto",
      granted_tools: ["*"],
      expires_in: 600,
    }),
    sessionRun: () => ({
      run_id: "run_0000000000000000",
      frames: [
        { event: "delta", text: "ok" },
        { event: "final", text: "ok" },
      ],
      final: "ok",
    }),
    sessionCancel: () => ({ cancelled: true }),
    sessionHistory: () => ({ messages: [], next_cursor: null }),
    sessionList: () => ({ sessions: [] }),
    sessionRefresh: (p) => ({
      app_session_uuid: String(p["app_session_uuid"]),
      expires_in: 600,
      expires_at: FAR_FUTURE_ISO,
    }),
    sessionDelete: () => ({ deleted: true }),
    complete: () => cannedCompletion(),
  },
  image: {
    generate: (p) => cannedImages(p),
    edit: (p) => cannedImages(p),
  },
  upload: {
    inline: (p, ctx) =>
      cannedEnvelope(
        `exec-uploads/dev/${ctx.userId}/${ctx.toolId}/${ctx.invokeId}/${String(p["purpose"])}/inline`,
        Buffer.byteLength(String(p["content_b64"] ?? ""), "base64"),
        String(p["mime_type"] ?? "application/octet-stream"),
        "inline",
      ),
    negotiate: (p, ctx) => ({
      r2_key: `exec-uploads/dev/${ctx.userId}/${ctx.toolId}/${ctx.invokeId}/${String(p["purpose"])}/negotiated`,
      put_url: "https://uploads.invalid/put",
      headers: { "Content-Type": String(p["mime_type"] ?? "application/octet-stream") },
      expires_in: 300,
      expires_at: FAR_FUTURE_ISO,
      _meta: { mode: "presigned-put" },
    }),
    confirm: (p) => cannedEnvelope(String(p["r2_key"]), 1, "application/octet-stream", "confirm"),
  },
  embeddings: {
    create: (p) => {
      const input = Array.isArray(p["input"]) ? p["input"] : [];
      return {
        object: "list",
        model: "anna-managed-v1",
        data: input.map((_, index) => ({ object: "embedding", index, embedding: [0, 0, 0] })),
        usage: { prompt_tokens: input.length, total_tokens: input.length },
        _meta: { alias: "anna-managed-v1", dimensions: 3 },
      };
    },
  },
  web: {
    search: () => ({ results: [], provider_tier: "recording", quota_consumed: 0 }),
    fetch: (p) => ({
      pages: (Array.isArray(p["urls"]) ? p["urls"] : []).map((url) => ({
        url: String(url),
        ok: true,
        content: "",
      })),
      quota_consumed: 0,
    }),
    imageSearch: () => ({ results: [], quota_consumed: 0 }),
    imageFetch: (p) => ({
      path: "web/images/recording.png",
      get_url: "https://files.invalid/get/web/images/recording.png",
      mime_type: "image/png",
      bytes_size: 0,
      sha256: "0".repeat(64),
      source_url: String(p["url"]),
      final_url: String(p["url"]),
      quota_consumed: 0,
    }),
  },
  credentials: {
    listAccounts: () => ({ accounts: [] }),
    getToken: () => ({
      access_token: "recording-token",
      account_id: "acct-1",
      expires_at: FAR_FUTURE_ISO,
    }),
  },
};

function cannedCompletion() {
  return {
    role: "assistant",
    content: { type: "text", text: "ok" },
    model: "recording-model",
    stopReason: "endTurn",
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  };
}

function cannedImages(p: Record<string, unknown>) {
  const n = typeof p["n"] === "number" ? p["n"] : 1;
  return {
    images: Array.from({ length: n }, (_, i) => ({
      url: `https://images.invalid/${i}.png`,
      mimeType: "image/png",
      width: 1024,
      height: 1024,
    })),
    model: "recording-image-model",
  };
}

function cannedEnvelope(r2Key: string, size: number, mimeType: string, mode: string) {
  const url = `https://uploads.invalid/get/${encodeURIComponent(r2Key)}`;
  return {
    r2_key: r2Key,
    download_url: url,
    url,
    mime_type: mimeType.toLowerCase(),
    size_bytes: size,
    bytes: size,
    expires_at: FAR_FUTURE_ISO,
    expires_in: 1800,
    _meta: { mode },
  };
}

export function createRecordingServices(options: RecordingServicesOptions = {}): RecordingServices {
  const calls: RecordedCall[] = [];
  const make = (service: ServiceName) => {
    const impl: Record<string, (params: unknown, ctx: ServiceContext) => Promise<unknown>> = {};
    for (const [method, canned] of Object.entries(CANNED[service])) {
      impl[method] = async (params, ctx) => {
        const call: RecordedCall = {
          service,
          method,
          params: params as Record<string, unknown>,
          ctx,
        };
        calls.push(call);
        const answer = await options.respond?.(call);
        return answer === undefined ? canned(call.params, ctx) : answer;
      };
    }
    return impl;
  };
  const services = {
    sampling: make("sampling"),
    storage: make("storage"),
    files: make("files"),
    agent: make("agent"),
    image: make("image"),
    upload: make("upload"),
    embeddings: make("embeddings"),
    web: make("web"),
    credentials: make("credentials"),
  } as unknown as HostServices;
  return {
    ...services,
    calls,
    callsTo: (service, method) =>
      calls.filter((c) => c.service === service && (method === undefined || c.method === method)),
  };
}
