import { AGENT_ERRORS } from "../errors/agent.js";
import { CREDENTIALS_ERRORS } from "../errors/credentials.js";
import { EMBEDDINGS_ERRORS } from "../errors/embeddings.js";
import { IMAGE_ERRORS } from "../errors/image.js";
import { SAMPLING_ERRORS } from "../errors/sampling.js";
import { STORAGE_ERRORS } from "../errors/storage.js";
import type { CatalogEntry } from "../errors/types.js";
import { UPLOAD_ERRORS } from "../errors/upload.js";
import { WEB_ERRORS } from "../errors/web.js";

/** Plugin → host methods (R20) and the family each belongs to. */
export type ReverseFamily =
  | "sampling"
  | "storage"
  | "files"
  | "agent"
  | "image"
  | "upload"
  | "embeddings"
  | "credentials"
  | "web";

export const REVERSE_METHOD_FAMILY = Object.freeze({
  "sampling/createMessage": "sampling",
  "storage/get": "storage",
  "storage/set": "storage",
  "storage/delete": "storage",
  "storage/list": "storage",
  "files/upload_begin": "files",
  "files/upload_complete": "files",
  "files/download_url": "files",
  "files/list": "files",
  "files/delete": "files",
  "agent/session.create": "agent",
  "agent/session.run": "agent",
  "agent/session.cancel": "agent",
  "agent/session.history": "agent",
  "agent/session.delete": "agent",
  "agent/session.list": "agent",
  "agent/session.refresh": "agent",
  "agent/complete": "agent",
  "image/generate": "image",
  "image/edit": "image",
  "host/uploadFile": "upload",
  "embeddings/create": "embeddings",
  "credentials/listAccounts": "credentials",
  "credentials/getToken": "credentials",
  "web/search": "web",
  "web/fetch": "web",
  "web/image_search": "web",
  "web/image_fetch": "web",
} as const satisfies Record<string, ReverseFamily>);

export type ReverseMethod = keyof typeof REVERSE_METHOD_FAMILY;

export function isReverseMethod(method: string): method is ReverseMethod {
  return Object.hasOwn(REVERSE_METHOD_FAMILY, method);
}

/**
 * The three gates of a reverse method (T13, H13). A list means "any of these"; an empty list
 * means the gate does not apply.
 */
export interface ReverseMethodRequirement {
  family: ReverseFamily;
  /** Keys in the plugin's `initialize` capabilities (either spelling, H7). */
  negotiated: readonly string[];
  /** Strings in the manifest's `host_capabilities`. */
  hostCapabilities: readonly string[];
  /** Sent when either of the above is missing: NOT_NEGOTIATED where the family has it (H13). */
  notNegotiatedError: CatalogEntry;
  /** Sent when the user has not granted the family. */
  notGrantedError: CatalogEntry;
}

function family(
  name: ReverseFamily,
  negotiated: readonly string[],
  hostCapabilities: readonly string[],
  notNegotiatedError: CatalogEntry,
  notGrantedError: CatalogEntry,
): ReverseMethodRequirement {
  return Object.freeze({
    family: name,
    negotiated: Object.freeze([...negotiated]),
    hostCapabilities: Object.freeze([...hostCapabilities]),
    notNegotiatedError,
    notGrantedError,
  });
}

const SAMPLING = family(
  "sampling",
  ["sampling"],
  ["llm.sample"],
  SAMPLING_ERRORS.NOT_NEGOTIATED,
  SAMPLING_ERRORS.NOT_GRANTED,
);
const STORAGE = family(
  "storage",
  ["storage"],
  ["aps.kv"],
  STORAGE_ERRORS.NOT_GRANTED,
  STORAGE_ERRORS.NOT_GRANTED,
);
const FILES = family(
  "files",
  ["storage", "files"],
  ["aps.files"],
  STORAGE_ERRORS.NOT_GRANTED,
  STORAGE_ERRORS.NOT_GRANTED,
);
// Agent plugins negotiate `agent` (real-world) or only `sampling` (Reference: same token).
const AGENT_SESSION = family(
  "agent",
  ["agent", "sampling"],
  ["llm.agent.auto", "llm.agent.fixed"],
  AGENT_ERRORS.NOT_GRANTED,
  AGENT_ERRORS.NOT_GRANTED,
);
const AGENT_COMPLETE = family(
  "agent",
  ["agent", "sampling"],
  ["llm.sample"],
  AGENT_ERRORS.NOT_GRANTED,
  AGENT_ERRORS.NOT_GRANTED,
);
const IMAGE_GENERATE = family(
  "image",
  ["image"],
  ["llm.image"],
  IMAGE_ERRORS.NOT_NEGOTIATED,
  IMAGE_ERRORS.NOT_GRANTED,
);
const IMAGE_EDIT = family(
  "image",
  ["image.edit", "image"],
  ["llm.image.edit"],
  IMAGE_ERRORS.NOT_NEGOTIATED,
  IMAGE_ERRORS.NOT_GRANTED,
);
const UPLOAD = family(
  "upload",
  ["upload"],
  ["host.upload"],
  UPLOAD_ERRORS.NOT_NEGOTIATED,
  UPLOAD_ERRORS.NOT_GRANTED,
);
// `embed` (Reference), `embeddings` (real plugins) or `sampling` (same token, R54).
const EMBEDDINGS = family(
  "embeddings",
  ["embed", "embeddings", "sampling"],
  ["llm.embed"],
  EMBEDDINGS_ERRORS.NOT_NEGOTIATED,
  EMBEDDINGS_ERRORS.NOT_GRANTED,
);
// No negotiation or declaration: the token follows the declared credentials (R66).
const CREDENTIALS = family(
  "credentials",
  [],
  [],
  CREDENTIALS_ERRORS.NOT_GRANTED,
  CREDENTIALS_ERRORS.NOT_GRANTED,
);
// The spec names no initialize key for web; only the declaration is checked.
const web = (capability: string): ReverseMethodRequirement =>
  family("web", [], [capability], WEB_ERRORS.NOT_NEGOTIATED, WEB_ERRORS.NOT_GRANTED);

export const REVERSE_METHOD_REQUIREMENTS: Readonly<
  Record<ReverseMethod, ReverseMethodRequirement>
> = Object.freeze({
  "sampling/createMessage": SAMPLING,
  "storage/get": STORAGE,
  "storage/set": STORAGE,
  "storage/delete": STORAGE,
  "storage/list": STORAGE,
  "files/upload_begin": FILES,
  "files/upload_complete": FILES,
  "files/download_url": FILES,
  "files/list": FILES,
  "files/delete": FILES,
  "agent/session.create": AGENT_SESSION,
  "agent/session.run": AGENT_SESSION,
  "agent/session.cancel": AGENT_SESSION,
  "agent/session.history": AGENT_SESSION,
  "agent/session.delete": AGENT_SESSION,
  "agent/session.list": AGENT_SESSION,
  "agent/session.refresh": AGENT_SESSION,
  "agent/complete": AGENT_COMPLETE,
  "image/generate": IMAGE_GENERATE,
  "image/edit": IMAGE_EDIT,
  "host/uploadFile": UPLOAD,
  "embeddings/create": EMBEDDINGS,
  "credentials/listAccounts": CREDENTIALS,
  "credentials/getToken": CREDENTIALS,
  "web/search": web("web.search"),
  "web/fetch": web("web.fetch"),
  "web/image_search": web("web.image_search"),
  "web/image_fetch": web("web.image_fetch"),
});

/** What a family needs overall: the union of its methods' requirements. */
export const REVERSE_FAMILY_CAPABILITIES: Readonly<
  Record<ReverseFamily, { negotiated: readonly string[]; hostCapabilities: readonly string[] }>
> = (() => {
  const out = {} as Record<ReverseFamily, { negotiated: string[]; hostCapabilities: string[] }>;
  for (const requirement of Object.values(REVERSE_METHOD_REQUIREMENTS)) {
    const entry = (out[requirement.family] ??= { negotiated: [], hostCapabilities: [] });
    for (const key of requirement.negotiated)
      if (!entry.negotiated.includes(key)) entry.negotiated.push(key);
    for (const key of requirement.hostCapabilities) {
      if (!entry.hostCapabilities.includes(key)) entry.hostCapabilities.push(key);
    }
  }
  return Object.freeze(out);
})();

export interface ReverseGateInput {
  /** Merged `initialize` capabilities; `undefined` for a v1.1 plugin (no reverse RPC at all). */
  negotiated: Readonly<Record<string, unknown>> | undefined;
  /** The manifest's `host_capabilities`. */
  hostCapabilities: readonly string[] | undefined;
}

/**
 * The error a reverse call gets from the first two gates (negotiation and declaration, H13), or
 * `undefined` when both pass. The user-grant gate is the service's: `notGrantedError`.
 */
export function reverseGateError(
  method: ReverseMethod,
  input: ReverseGateInput,
): CatalogEntry | undefined {
  const requirement = REVERSE_METHOD_REQUIREMENTS[method];
  if (input.negotiated === undefined) return requirement.notNegotiatedError;
  const negotiated = input.negotiated;
  if (
    requirement.negotiated.length > 0 &&
    !requirement.negotiated.some((key) => key in negotiated)
  ) {
    return requirement.notNegotiatedError;
  }
  const declared = input.hostCapabilities ?? [];
  if (
    requirement.hostCapabilities.length > 0 &&
    !requirement.hostCapabilities.some((capability) => declared.includes(capability))
  ) {
    return requirement.notNegotiatedError;
  }
  return undefined;
}
