// The one table of the codes each reverse-RPC family answers with when the host itself refuses a
// call (H13): the router's gates, the "off" services and the refusals before a router is attached
// all read it, so a family cannot refuse with one code in one place and another elsewhere.
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
import type { GrantFamily } from "./grants.js";

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

/**
 * Method-name prefixes of each family, longest first. `agent/complete` is sampling-gated in the
 * router but agent-named: before a router exists it refuses with the agent code, as any agent/*.
 */
const FAMILY_PREFIXES: readonly (readonly [string, GrantFamily])[] = [
  ["host/uploadFile", "upload"],
  ["sampling/", "sampling"],
  ["agent/", "agent"],
  ["storage/", "storage"],
  ["files/", "files"],
  ["image/", "image"],
  ["embeddings/", "embeddings"],
  ["web/", "web"],
  ["credentials/", "credentials"],
];

/** The family a reverse method belongs to by its name, or undefined for a non-family method. */
export function familyOfMethod(method: string): GrantFamily | undefined {
  return FAMILY_PREFIXES.find(([prefix]) => method.startsWith(prefix))?.[1];
}
