// "Off" implementations: every call fails with the family's NOT_NEGOTIATED code where it has
// one, else NOT_GRANTED (the H13 rule), the way `--no-sampling` style switches behave.
import {
  AGENT_ERRORS,
  EMBEDDINGS_ERRORS,
  IMAGE_ERRORS,
  SAMPLING_ERRORS,
  STORAGE_ERRORS,
  UPLOAD_ERRORS,
} from "@anna-ai/app-schema/errors";
import type { CatalogEntry } from "@anna-ai/app-schema/errors";
import type { HostServices } from "./host-services.js";
import { catalogError } from "./service-error.js";

const METHODS: Record<keyof HostServices, { entry: CatalogEntry; wire: Record<string, string> }> = {
  sampling: {
    entry: SAMPLING_ERRORS.NOT_NEGOTIATED,
    wire: { createMessage: "sampling/createMessage" },
  },
  storage: {
    entry: STORAGE_ERRORS.NOT_GRANTED,
    wire: {
      get: "storage/get",
      set: "storage/set",
      delete: "storage/delete",
      list: "storage/list",
    },
  },
  files: {
    entry: STORAGE_ERRORS.NOT_GRANTED,
    wire: {
      uploadBegin: "files/upload_begin",
      uploadComplete: "files/upload_complete",
      downloadUrl: "files/download_url",
      list: "files/list",
      delete: "files/delete",
    },
  },
  agent: {
    entry: AGENT_ERRORS.NOT_GRANTED,
    wire: {
      sessionCreate: "agent/session.create",
      sessionRun: "agent/session.run",
      sessionCancel: "agent/session.cancel",
      sessionHistory: "agent/session.history",
      sessionList: "agent/session.list",
      sessionRefresh: "agent/session.refresh",
      sessionDelete: "agent/session.delete",
      complete: "agent/complete",
    },
  },
  image: {
    entry: IMAGE_ERRORS.NOT_NEGOTIATED,
    wire: { generate: "image/generate", edit: "image/edit" },
  },
  upload: {
    entry: UPLOAD_ERRORS.NOT_NEGOTIATED,
    wire: { inline: "host/uploadFile", negotiate: "host/uploadFile", confirm: "host/uploadFile" },
  },
  embeddings: { entry: EMBEDDINGS_ERRORS.NOT_NEGOTIATED, wire: { create: "embeddings/create" } },
};

/** Every family switched off; `reason` ends up in each error message. */
export function createDisabledServices(reason = "disabled on this host"): HostServices {
  const out: Record<string, Record<string, () => Promise<never>>> = {};
  for (const [service, { entry, wire }] of Object.entries(METHODS)) {
    const impl: Record<string, () => Promise<never>> = {};
    for (const [method, wireMethod] of Object.entries(wire)) {
      impl[method] = () =>
        Promise.reject(catalogError(entry, `${wireMethod} is ${reason}`, { reason: "DISABLED" }));
    }
    out[service] = impl;
  }
  return out as unknown as HostServices;
}
