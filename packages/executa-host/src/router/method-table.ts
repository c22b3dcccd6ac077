// Every reverse method the router serves: which family's codes it uses, which grant it needs,
// which capability strings unlock it (H13, T13) and which service method answers it.
import {
  AGENT_ERRORS,
  EMBEDDINGS_ERRORS,
  IMAGE_ERRORS,
  SAMPLING_ERRORS,
  STORAGE_ERRORS,
  UPLOAD_ERRORS,
} from "@anna-ai/app-schema/errors";
import type { CatalogEntry } from "@anna-ai/app-schema/errors";
import type { ReverseFamily } from "../services/grants.js";
import type { HostServices } from "../services/host-services.js";

/** The codes a family answers with when the router itself refuses a call. */
export interface FamilyCodes {
  /**
   * Not negotiated (v1.1) or not declared in `host_capabilities`, and calls outside any invoke:
   * NOT_NEGOTIATED where the family has one, else NOT_GRANTED (H13).
   */
  gate: CatalogEntry;
  /** No user grant (H13). */
  notGranted: CatalogEntry;
  invalidRequest: CatalogEntry;
  /** A service failed with something that is not a catalogued RpcError. */
  upstream: CatalogEntry;
}

export const FAMILY_CODES: Readonly<Record<ReverseFamily, FamilyCodes>> = {
  sampling: {
    gate: SAMPLING_ERRORS.NOT_NEGOTIATED,
    notGranted: SAMPLING_ERRORS.NOT_GRANTED,
    invalidRequest: SAMPLING_ERRORS.INVALID_REQUEST,
    upstream: SAMPLING_ERRORS.PROVIDER_ERROR,
  },
  agent: {
    gate: AGENT_ERRORS.NOT_GRANTED,
    notGranted: AGENT_ERRORS.NOT_GRANTED,
    invalidRequest: AGENT_ERRORS.INVALID_REQUEST,
    upstream: AGENT_ERRORS.PROVIDER_ERROR,
  },
  storage: {
    gate: STORAGE_ERRORS.NOT_GRANTED,
    notGranted: STORAGE_ERRORS.NOT_GRANTED,
    invalidRequest: STORAGE_ERRORS.INVALID_REQUEST,
    upstream: STORAGE_ERRORS.UPSTREAM_ERROR,
  },
  files: {
    gate: STORAGE_ERRORS.NOT_GRANTED,
    notGranted: STORAGE_ERRORS.NOT_GRANTED,
    invalidRequest: STORAGE_ERRORS.INVALID_REQUEST,
    upstream: STORAGE_ERRORS.UPSTREAM_ERROR,
  },
  image: {
    gate: IMAGE_ERRORS.NOT_NEGOTIATED,
    notGranted: IMAGE_ERRORS.NOT_GRANTED,
    invalidRequest: IMAGE_ERRORS.INVALID_REQUEST,
    upstream: IMAGE_ERRORS.PROVIDER_ERROR,
  },
  upload: {
    gate: UPLOAD_ERRORS.NOT_NEGOTIATED,
    notGranted: UPLOAD_ERRORS.NOT_GRANTED,
    invalidRequest: UPLOAD_ERRORS.INVALID_REQUEST,
    upstream: UPLOAD_ERRORS.STORAGE_ERROR,
  },
  embeddings: {
    gate: EMBEDDINGS_ERRORS.NOT_NEGOTIATED,
    notGranted: EMBEDDINGS_ERRORS.NOT_GRANTED,
    invalidRequest: EMBEDDINGS_ERRORS.INVALID_REQUEST,
    upstream: EMBEDDINGS_ERRORS.PROVIDER_ERROR,
  },
};

export interface MethodSpec {
  method: string;
  /** Whose error codes the method answers with. */
  family: ReverseFamily;
  /** Whose grant (and token) it needs: `agent/complete` rides on the sampling grant (R31, R37). */
  grantFamily: ReverseFamily;
  /** `host_capabilities` strings that unlock it; any one is enough. The first is the canonical one. */
  hostCapabilities: readonly string[];
  /** Keys of the plugin's initialize capabilities that announce the client (advisory, see gates). */
  pluginCapabilities: readonly string[];
  service: keyof HostServices;
  /** The service method; `host/uploadFile` picks one per `mode`. */
  serviceMethod: string;
}

function spec(
  method: string,
  family: ReverseFamily,
  hostCapabilities: readonly string[],
  pluginCapabilities: readonly string[],
  service: keyof HostServices,
  serviceMethod: string,
  grantFamily: ReverseFamily = family,
): MethodSpec {
  return {
    method,
    family,
    grantFamily,
    hostCapabilities,
    pluginCapabilities,
    service,
    serviceMethod,
  };
}

const SAMPLING_CAPS = ["sampling"];
const AGENT_CAPS = ["agent", "sampling"];
const AGENT_SESSION_HOST_CAPS = ["llm.agent.auto", "llm.agent.fixed"];
const STORAGE_CAPS = ["storage"];
const FILES_CAPS = ["storage", "files"];

const SPECS: readonly MethodSpec[] = [
  spec(
    "sampling/createMessage",
    "sampling",
    ["llm.sample"],
    SAMPLING_CAPS,
    "sampling",
    "createMessage",
  ),
  spec(
    "agent/session.create",
    "agent",
    AGENT_SESSION_HOST_CAPS,
    AGENT_CAPS,
    "agent",
    "sessionCreate",
  ),
  spec("agent/session.run", "agent", AGENT_SESSION_HOST_CAPS, AGENT_CAPS, "agent", "sessionRun"),
  spec(
    "agent/session.cancel",
    "agent",
    AGENT_SESSION_HOST_CAPS,
    AGENT_CAPS,
    "agent",
    "sessionCancel",
  ),
  spec(
    "agent/session.history",
    "agent",
    AGENT_SESSION_HOST_CAPS,
    AGENT_CAPS,
    "agent",
    "sessionHistory",
  ),
  spec("agent/session.list", "agent", AGENT_SESSION_HOST_CAPS, AGENT_CAPS, "agent", "sessionList"),
  spec(
    "agent/session.refresh",
    "agent",
    AGENT_SESSION_HOST_CAPS,
    AGENT_CAPS,
    "agent",
    "sessionRefresh",
  ),
  spec(
    "agent/session.delete",
    "agent",
    AGENT_SESSION_HOST_CAPS,
    AGENT_CAPS,
    "agent",
    "sessionDelete",
  ),
  spec(
    "agent/complete",
    "agent",
    ["llm.sample", "llm.complete"],
    AGENT_CAPS,
    "agent",
    "complete",
    "sampling",
  ),
  spec("storage/get", "storage", ["aps.kv"], STORAGE_CAPS, "storage", "get"),
  spec("storage/set", "storage", ["aps.kv"], STORAGE_CAPS, "storage", "set"),
  spec("storage/delete", "storage", ["aps.kv"], STORAGE_CAPS, "storage", "delete"),
  spec("storage/list", "storage", ["aps.kv"], STORAGE_CAPS, "storage", "list"),
  spec("files/upload_begin", "files", ["aps.files"], FILES_CAPS, "files", "uploadBegin"),
  spec("files/upload_complete", "files", ["aps.files"], FILES_CAPS, "files", "uploadComplete"),
  spec("files/download_url", "files", ["aps.files"], FILES_CAPS, "files", "downloadUrl"),
  spec("files/list", "files", ["aps.files"], FILES_CAPS, "files", "list"),
  spec("files/delete", "files", ["aps.files"], FILES_CAPS, "files", "delete"),
  spec("image/generate", "image", ["llm.image"], ["image"], "image", "generate"),
  spec("image/edit", "image", ["llm.image.edit"], ["image.edit", "image"], "image", "edit"),
  spec("host/uploadFile", "upload", ["host.upload"], ["upload"], "upload", "inline"),
  spec(
    "embeddings/create",
    "embeddings",
    ["llm.embed"],
    ["embeddings", "embed", "sampling"],
    "embeddings",
    "create",
  ),
];

/** Method name → spec. A plain object lookup would also match `constructor` & co. */
export const REVERSE_METHODS: ReadonlyMap<string, MethodSpec> = new Map(
  SPECS.map((s) => [s.method, s]),
);
