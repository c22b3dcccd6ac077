// Every reverse method the router serves: which family's codes it uses, which grant it needs,
// which capability strings unlock it (H13, T13) and which service method answers it.
import type { CatalogEntry } from "@anna-ai/app-schema/errors";
import { REVERSE_METHOD_REQUIREMENTS, isReverseMethod } from "@anna-ai/app-schema";
import { GRANT_FAMILIES } from "../services/grants.js";
import type { GrantFamily } from "../services/grants.js";
import type { HostServices } from "../services/host-services.js";

export { FAMILY_CODES, type FamilyCodes } from "../services/family-codes.js";

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
