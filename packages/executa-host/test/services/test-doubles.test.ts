import {
  AgentCompleteResultSchema,
  AgentSessionCancelResultSchema,
  AgentSessionCreateResultSchema,
  AgentSessionDeleteResultSchema,
  AgentSessionHistoryResultSchema,
  AgentSessionListResultSchema,
  AgentSessionRefreshResultSchema,
  AgentSessionRunResultSchema,
  EmbeddingsCreateResultSchema,
  FilesDeleteResultSchema,
  FilesDownloadUrlResultSchema,
  FilesListResultSchema,
  FilesUploadBeginResultSchema,
  FilesUploadCompleteResultSchema,
  HostUploadFileResultSchema,
  HostUploadNegotiateResultSchema,
  ImageResultSchema,
  SamplingCreateMessageResultSchema,
  StorageDeleteResultSchema,
  StorageGetResultSchema,
  StorageListResultSchema,
  StorageSetResultSchema,
} from "@anna-ai/app-schema";
import { RpcError } from "@anna-ai/jsonrpc";
import { describe, expect, it } from "vitest";
import { createDisabledServices } from "../../src/services/disabled-services.js";
import type { HostServices } from "../../src/services/host-services.js";
import { createRecordingServices } from "../../src/services/recording-services.js";
import type { ServiceContext } from "../../src/services/service-context.js";

// `never` grant: one context object fits every service's ServiceContext<FamilyGrant>.
const ctx: ServiceContext<never> = {
  userId: "u",
  toolId: "t",
  invokeId: "i",
  pluginName: "p",
  tool: "x",
  deadlineMs: 0,
  signal: new AbortController().signal,
  grant: {} as never,
};

type Call = (services: HostServices) => Promise<unknown>;
const any = (v: Record<string, unknown>) => v as never;

const CALLS: [string, Call, { safeParse(v: unknown): { success: boolean } }][] = [
  [
    "sampling.createMessage",
    (s) => s.sampling.createMessage(any({ messages: [], maxTokens: 1 }), ctx),
    SamplingCreateMessageResultSchema,
  ],
  [
    "storage.get",
    (s) => s.storage.get(any({ key: "k", scope: "tool" }), ctx),
    StorageGetResultSchema,
  ],
  [
    "storage.set",
    (s) => s.storage.set(any({ key: "k", value: 1, scope: "tool" }), ctx),
    StorageSetResultSchema,
  ],
  [
    "storage.delete",
    (s) => s.storage.delete(any({ key: "k", scope: "tool" }), ctx),
    StorageDeleteResultSchema,
  ],
  ["storage.list", (s) => s.storage.list(any({ scope: "tool" }), ctx), StorageListResultSchema],
  [
    "files.uploadBegin",
    (s) => s.files.uploadBegin(any({ path: "a", scope: "tool" }), ctx),
    FilesUploadBeginResultSchema,
  ],
  [
    "files.uploadComplete",
    (s) => s.files.uploadComplete(any({ path: "a", scope: "tool" }), ctx),
    FilesUploadCompleteResultSchema,
  ],
  [
    "files.downloadUrl",
    (s) => s.files.downloadUrl(any({ path: "a", scope: "tool" }), ctx),
    FilesDownloadUrlResultSchema,
  ],
  ["files.list", (s) => s.files.list(any({ scope: "tool" }), ctx), FilesListResultSchema],
  [
    "files.delete",
    (s) => s.files.delete(any({ path: "a", scope: "tool" }), ctx),
    FilesDeleteResultSchema,
  ],
  [
    "agent.sessionCreate",
    (s) => s.agent.sessionCreate(any({ kind: "agent" }), ctx),
    AgentSessionCreateResultSchema,
  ],
  [
    "agent.sessionRun",
    (s) => s.agent.sessionRun(any({ app_session_uuid: "aps_1", content: "x" }), ctx),
    AgentSessionRunResultSchema,
  ],
  [
    "agent.sessionCancel",
    (s) => s.agent.sessionCancel(any({ app_session_uuid: "aps_1", run_id: "r" }), ctx),
    AgentSessionCancelResultSchema,
  ],
  [
    "agent.sessionHistory",
    (s) => s.agent.sessionHistory(any({ app_session_uuid: "aps_1" }), ctx),
    AgentSessionHistoryResultSchema,
  ],
  ["agent.sessionList", (s) => s.agent.sessionList(any({}), ctx), AgentSessionListResultSchema],
  [
    "agent.sessionRefresh",
    (s) => s.agent.sessionRefresh(any({ app_session_uuid: "aps_1" }), ctx),
    AgentSessionRefreshResultSchema,
  ],
  [
    "agent.sessionDelete",
    (s) => s.agent.sessionDelete(any({ app_session_uuid: "aps_1" }), ctx),
    AgentSessionDeleteResultSchema,
  ],
  [
    "agent.complete",
    (s) => s.agent.complete(any({ messages: [] }), ctx),
    AgentCompleteResultSchema,
  ],
  ["image.generate", (s) => s.image.generate(any({ prompt: "p", n: 2 }), ctx), ImageResultSchema],
  [
    "image.edit",
    (s) => s.image.edit(any({ prompt: "p", n: 1, image_url: "u" }), ctx),
    ImageResultSchema,
  ],
  [
    "upload.inline",
    (s) =>
      s.upload.inline(
        any({
          mode: "inline",
          filename: "a",
          mime_type: "Text/Plain",
          content_b64: "aGk=",
          purpose: "user_artifact",
        }),
        ctx,
      ),
    HostUploadFileResultSchema,
  ],
  [
    "upload.negotiate",
    (s) =>
      s.upload.negotiate(
        any({ mode: "negotiate", filename: "a", mime_type: "image/png", purpose: "user_artifact" }),
        ctx,
      ),
    HostUploadNegotiateResultSchema,
  ],
  [
    "upload.confirm",
    (s) => s.upload.confirm(any({ mode: "confirm", r2_key: "k" }), ctx),
    HostUploadFileResultSchema,
  ],
  [
    "embeddings.create",
    (s) => s.embeddings.create(any({ input: ["a", "b"] }), ctx),
    EmbeddingsCreateResultSchema,
  ],
];

describe("createRecordingServices", () => {
  it.each(CALLS)(
    "%s answers a result that matches the app-schema wire shape",
    async (_name, call, schema) => {
      const services = createRecordingServices();
      const result = await call(services);
      expect(schema.safeParse(result).success).toBe(true);
      expect(services.calls).toHaveLength(1);
    },
  );

  it("records service, method, params and context in call order", async () => {
    const services = createRecordingServices();
    await services.storage.get(any({ key: "k", scope: "user" }), ctx);
    await services.image.generate(any({ prompt: "p", n: 1 }), ctx);
    expect(services.calls.map((c) => [c.service, c.method, c.params, c.ctx.invokeId])).toEqual([
      ["storage", "get", { key: "k", scope: "user" }, "i"],
      ["image", "generate", { prompt: "p", n: 1 }, "i"],
    ]);
    expect(services.callsTo("image")).toHaveLength(1);
    expect(services.callsTo("storage", "set")).toHaveLength(0);
  });

  it("answers with whatever respond returns, or throws what it throws", async () => {
    const services = createRecordingServices({
      respond: (call) => {
        if (call.method === "get") return { value: 42, exists: true, etag: "e" };
        if (call.method === "set") throw new Error("boom");
        return undefined;
      },
    });
    await expect(services.storage.get(any({ key: "k", scope: "tool" }), ctx)).resolves.toEqual({
      value: 42,
      exists: true,
      etag: "e",
    });
    await expect(
      services.storage.set(any({ key: "k", value: 1, scope: "tool" }), ctx),
    ).rejects.toThrow("boom");
    await expect(services.storage.list(any({ scope: "tool" }), ctx)).resolves.toEqual({
      items: [],
      next_cursor: null,
    });
  });
});

describe("createDisabledServices", () => {
  const expected: Record<string, [number, string]> = {
    sampling: [-32008, "SAMPLING_NOT_NEGOTIATED"],
    storage: [-32021, "STORAGE_NOT_GRANTED"],
    files: [-32021, "STORAGE_NOT_GRANTED"],
    agent: [-32041, "AGENT_NOT_GRANTED"],
    image: [-32107, "IMAGE_NOT_NEGOTIATED"],
    upload: [-32210, "UPLOAD_NOT_NEGOTIATED"],
    embeddings: [-32507, "EMBED_NOT_NEGOTIATED"],
  };

  it.each(CALLS)(
    "%s fails with its family's NOT_NEGOTIATED/NOT_GRANTED code",
    async (name, call) => {
      const error = await call(createDisabledServices()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RpcError);
      const family = name.split(".")[0] as string;
      expect([(error as RpcError).code, (error as RpcError).errorCode]).toEqual(expected[family]);
      expect((error as RpcError).message).toMatch(/ is disabled on this host$/);
    },
  );

  it("puts the reason in the message", async () => {
    const services = createDisabledServices("switched off by --no-sampling");
    await expect(services.sampling.createMessage(any({}), ctx)).rejects.toThrow(
      "sampling/createMessage is switched off by --no-sampling",
    );
  });
});
