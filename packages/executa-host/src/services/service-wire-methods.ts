// The reverse method each host-service method answers, for error messages that name what the
// plugin called. The router's own table (router/method-table.ts) goes the other way: wire name →
// service method, with grants and gates.
import type { HostServices } from "./host-services.js";

export const SERVICE_WIRE_METHODS = Object.freeze({
  sampling: { createMessage: "sampling/createMessage" },
  storage: {
    get: "storage/get",
    set: "storage/set",
    delete: "storage/delete",
    list: "storage/list",
  },
  files: {
    uploadBegin: "files/upload_begin",
    uploadComplete: "files/upload_complete",
    downloadUrl: "files/download_url",
    list: "files/list",
    delete: "files/delete",
  },
  agent: {
    sessionCreate: "agent/session.create",
    sessionRun: "agent/session.run",
    sessionCancel: "agent/session.cancel",
    sessionHistory: "agent/session.history",
    sessionList: "agent/session.list",
    sessionRefresh: "agent/session.refresh",
    sessionDelete: "agent/session.delete",
    complete: "agent/complete",
  },
  image: { generate: "image/generate", edit: "image/edit" },
  // All three modes of one call.
  upload: { inline: "host/uploadFile", negotiate: "host/uploadFile", confirm: "host/uploadFile" },
  embeddings: { create: "embeddings/create" },
  web: {
    search: "web/search",
    fetch: "web/fetch",
    imageSearch: "web/image_search",
    imageFetch: "web/image_fetch",
  },
  credentials: { listAccounts: "credentials/listAccounts", getToken: "credentials/getToken" },
} as const satisfies { [S in keyof HostServices]: Record<keyof HostServices[S], string> });
