// Every reverse method the router serves: which family's codes it uses, which grant it needs,
// which capability strings unlock it (H13, T13) and which service method answers it.
import {
  AGENT_ERRORS,
  CREDENTIALS_ERRORS,
  EMBEDDINGS_ERRORS,
  IMAGE_ERRORS,
  SAMPLING_ERRORS,
  STORAGE_ERRORS,
  UPLOAD_ERRORS,
  WEB_ERRORS,
} from "@anna-ai/app-schema/errors";
import type { CatalogEntry } from "@anna-ai/app-schema/errors";
import { REVERSE_METHOD_REQUIREMENTS, isReverseMethod } from "@anna-ai/app-schema";
import { GRANT_FAMILIES } from "../services/grants.js";
import type { GrantFamily } from "../services/grants.js";
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

export const FAMILY_CODES: Readonly<Record<GrantFamily, FamilyCodes>> = {
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
  // R157 gives only the range; the names are app-schema's (D-schema-5).
  web: {
    gate: WEB_ERRORS.NOT_NEGOTIATED,
    notGranted: WEB_ERRORS.NOT_GRANTED,
    invalidRequest: WEB_ERRORS.INVALID_REQUEST,
    upstream: WEB_ERRORS.PROVIDER_ERROR,
  },
  // R69: a missing token (no OAuth credential declared, or withheld) is -32061 like a refusal.
  credentials: {
    gate: CREDENTIALS_ERRORS.NOT_GRANTED,
    notGranted: CREDENTIALS_ERRORS.NOT_GRANTED,
    invalidRequest: CREDENTIALS_ERRORS.INVALID_REQUEST,
    upstream: CREDENTIALS_ERRORS.UPSTREAM,
  },
};

export interface MethodSpec {
  method: string;
  /** Whose error codes the method answers with. */
  family: GrantFamily;
  /** Whose grant (and token) it needs: `agent/complete` rides on the sampling grant (R31, R37). */
  grantFamily: GrantFamily;
  /**
   * `host_capabilities` strings that unlock it; any one is enough. The first is the canonical
   * one. Empty: no declaration is needed (`credentials/*`, R66).
   */
  hostCapabilities: readonly string[];
  /** Keys of the plugin's initialize capabilities that announce the client (advisory, see gates). */
  pluginCapabilities: readonly string[];
  service: keyof HostServices;
  /** The service method; `host/uploadFile` picks one per `mode`. */
  serviceMethod: string;
}

/** How the router serves each method; the gate strings come from app-schema (one home). */
const SERVED: Readonly<
  Record<string, { service: keyof HostServices; serviceMethod: string; grantFamily?: GrantFamily }>
> = {
  "sampling/createMessage": { service: "sampling", serviceMethod: "createMessage" },
  "agent/session.create": { service: "agent", serviceMethod: "sessionCreate" },
  "agent/session.run": { service: "agent", serviceMethod: "sessionRun" },
  "agent/session.cancel": { service: "agent", serviceMethod: "sessionCancel" },
  "agent/session.history": { service: "agent", serviceMethod: "sessionHistory" },
  "agent/session.list": { service: "agent", serviceMethod: "sessionList" },
  "agent/session.refresh": { service: "agent", serviceMethod: "sessionRefresh" },
  "agent/session.delete": { service: "agent", serviceMethod: "sessionDelete" },
  "agent/complete": { service: "agent", serviceMethod: "complete", grantFamily: "sampling" },
  "storage/get": { service: "storage", serviceMethod: "get" },
  "storage/set": { service: "storage", serviceMethod: "set" },
  "storage/delete": { service: "storage", serviceMethod: "delete" },
  "storage/list": { service: "storage", serviceMethod: "list" },
  "files/upload_begin": { service: "files", serviceMethod: "uploadBegin" },
  "files/upload_complete": { service: "files", serviceMethod: "uploadComplete" },
  "files/download_url": { service: "files", serviceMethod: "downloadUrl" },
  "files/list": { service: "files", serviceMethod: "list" },
  "files/delete": { service: "files", serviceMethod: "delete" },
  "image/generate": { service: "image", serviceMethod: "generate" },
  "image/edit": { service: "image", serviceMethod: "edit" },
  "host/uploadFile": { service: "upload", serviceMethod: "inline" },
  "embeddings/create": { service: "embeddings", serviceMethod: "create" },
  "web/search": { service: "web", serviceMethod: "search" },
  "web/fetch": { service: "web", serviceMethod: "fetch" },
  "web/image_search": { service: "web", serviceMethod: "imageSearch" },
  "web/image_fetch": { service: "web", serviceMethod: "imageFetch" },
  "credentials/listAccounts": { service: "credentials", serviceMethod: "listAccounts" },
  "credentials/getToken": { service: "credentials", serviceMethod: "getToken" },
};

function isGrantFamily(family: string): family is GrantFamily {
  return (GRANT_FAMILIES as readonly string[]).includes(family);
}

/** Method name → spec, for every method this router serves. */
export const REVERSE_METHODS: ReadonlyMap<string, MethodSpec> = new Map(
  Object.entries(SERVED).flatMap(([method, served]): [string, MethodSpec][] => {
    if (!isReverseMethod(method)) return [];
    const requirement = REVERSE_METHOD_REQUIREMENTS[method];
    if (!isGrantFamily(requirement.family)) return [];
    return [
      [
        method,
        {
          method,
          family: requirement.family,
          grantFamily: served.grantFamily ?? requirement.family,
          hostCapabilities: requirement.hostCapabilities,
          pluginCapabilities: requirement.negotiated,
          service: served.service,
          serviceMethod: served.serviceMethod,
        },
      ],
    ];
  }),
);

/**
 * The refusal for a documented reverse method this router does not serve (none today; kept so
 * a method app-schema adds later is refused with its family's gate code, not -32601).
 */
export function unservedMethodEntry(method: string): CatalogEntry | undefined {
  if (REVERSE_METHODS.has(method) || !isReverseMethod(method)) return undefined;
  return REVERSE_METHOD_REQUIREMENTS[method].notNegotiatedError;
}
