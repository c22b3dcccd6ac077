// The `off` mode of each family under `executa dev`: every call fails with the code the
// Reference gives for the switch (L11605–11640: sampling -32008, agent -32041, storage -32021,
// image -32101, upload -32201; embeddings follows sampling with its NOT_NEGOTIATED -32507), and
// the message says which flag turns the family on.
import {
  AGENT_ERRORS,
  EMBEDDINGS_ERRORS,
  IMAGE_ERRORS,
  SAMPLING_ERRORS,
  STORAGE_ERRORS,
  UPLOAD_ERRORS,
  type CatalogEntry,
} from "@anna-ai/app-schema/errors";
import { catalogError, type HostServices } from "@anna-ai/executa-host";

export type OffFamily = "sampling" | "agent" | "storage" | "image" | "upload" | "embeddings";

interface OffSpec {
  entry: CatalogEntry;
  /** Service method → wire method, for the message. */
  methods: Record<string, string>;
}

const OFF: Readonly<Record<OffFamily, OffSpec>> = {
  sampling: {
    entry: SAMPLING_ERRORS.NOT_NEGOTIATED,
    methods: { createMessage: "sampling/createMessage" },
  },
  agent: {
    entry: AGENT_ERRORS.NOT_GRANTED,
    methods: {
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
  storage: {
    entry: STORAGE_ERRORS.NOT_GRANTED,
    methods: {
      get: "storage/get",
      set: "storage/set",
      delete: "storage/delete",
      list: "storage/list",
    },
  },
  image: {
    entry: IMAGE_ERRORS.NOT_GRANTED,
    methods: { generate: "image/generate", edit: "image/edit" },
  },
  upload: {
    entry: UPLOAD_ERRORS.NOT_GRANTED,
    methods: {
      inline: "host/uploadFile",
      negotiate: "host/uploadFile",
      confirm: "host/uploadFile",
    },
  },
  embeddings: {
    entry: EMBEDDINGS_ERRORS.NOT_NEGOTIATED,
    methods: { create: "embeddings/create" },
  },
};

const FILES_METHODS: Record<string, string> = {
  uploadBegin: "files/upload_begin",
  uploadComplete: "files/upload_complete",
  downloadUrl: "files/download_url",
  list: "files/list",
  delete: "files/delete",
};

/** A service whose every method rejects; `hint` names the flag that turns it on. */
export function offService<F extends OffFamily>(family: F, hint: string): HostServices[F] {
  const spec = OFF[family];
  return rejectAll(spec.entry, spec.methods, hint) as unknown as HostServices[F];
}

/** `files/*` shares the storage switch and its code. */
export function offFilesService(hint: string): HostServices["files"] {
  return rejectAll(
    STORAGE_ERRORS.NOT_GRANTED,
    FILES_METHODS,
    hint,
  ) as unknown as HostServices["files"];
}

function rejectAll(
  entry: CatalogEntry,
  methods: Record<string, string>,
  hint: string,
): Record<string, () => Promise<never>> {
  const impl: Record<string, () => Promise<never>> = {};
  for (const [method, wire] of Object.entries(methods)) {
    impl[method] = () =>
      Promise.reject(
        catalogError(entry, `${wire} is off in executa dev; ${hint}`, { reason: "DISABLED" }),
      );
  }
  return impl;
}
