// What a user granted one Executa, per reverse-RPC family (gate 3 of H13). Nexus stores these
// under `UserExecuta.custom_config.*_grant`; offline tools configure them directly. Every limit
// is optional: the router fills in the spec defaults and caps grants at the host limits.
import type { StorageScope } from "@anna-ai/app-schema";
import type { CredentialsGrant } from "./credentials-service.js";
import type { WebGrant } from "./web-service.js";
import { WEB_GRANT_ALL } from "./web-service.js";

/** The reverse-RPC families with a user grant (`files/*` has its own gate, T13). */
export type GrantFamily =
  | "sampling"
  | "agent"
  | "storage"
  | "files"
  | "image"
  | "upload"
  | "embeddings"
  | "web"
  | "credentials";

export const GRANT_FAMILIES: readonly GrantFamily[] = [
  "sampling",
  "agent",
  "storage",
  "files",
  "image",
  "upload",
  "embeddings",
  "web",
  "credentials",
];

/** `sampling_grant {enabled, maxCalls, maxTokensTotal}` (L1874–L1884, R29). */
export interface SamplingGrant {
  /** Calls per invoke; host-capped at 8. */
  maxCalls?: number;
  /** Cumulative tokens per invoke; host-capped at 32 000. */
  maxTokensTotal?: number;
}

/** Agent sessions share the sampling caps and add a tool whitelist (T21). */
export interface AgentGrant extends SamplingGrant {
  /** Tools the agent may use; `["*"]` or omitted means whatever the session grants. */
  grantedTools?: readonly string[];
  /** `fixed` submode clients the user allowed (R32). */
  allowedFixedClientIds?: readonly string[];
}

/** `storage_grant {scopes, quotaBytes, objectMaxBytes}` (T22, R39); shared by `files/*`. */
export interface StorageGrant {
  /** Plugin scopes; default `["user", "tool"]`. `app` is never granted here (H14). */
  allowedScopes?: readonly Exclude<StorageScope, "app">[];
  quotaBytes?: number;
  objectMaxBytes?: number;
  /** Storage + files calls per invoke; host-capped at 200 (`max_calls`). */
  maxCalls?: number;
}

/** `image_grant {generate, edit, max_images_per_day, max_per_call…}` (T27, R56–R57). */
export interface ImageGrant {
  /** Default true. */
  generate?: boolean;
  /** Default false: editing is a separate opt-in (T27). */
  edit?: boolean;
  /** Default 4, host-capped at 8. */
  maxPerCallGenerate?: number;
  /** Default 1, host-capped at 8. */
  maxPerCallEdit?: number;
  /** Images per invoke across generate and edit; default 4. */
  maxImages?: number;
  maxImagesPerDay?: number;
}

/** `upload_grant {enabled, maxFiles, maxFileBytes, maxTotalBytes, allowedPurposes}` (T28, R61). */
export interface UploadGrant {
  maxFiles?: number;
  maxFileBytes?: number;
  maxTotalBytes?: number;
  allowedPurposes?: readonly string[];
}

/** Embeddings are on by default once declared; the grant exists to be withdrawn (R54). */
export type EmbeddingsGrant = Record<string, never>;

export interface GrantByFamily {
  sampling: SamplingGrant;
  agent: AgentGrant;
  storage: StorageGrant;
  files: StorageGrant;
  image: ImageGrant;
  upload: UploadGrant;
  embeddings: EmbeddingsGrant;
  /** `UserExecuta.custom_config.web_grant` (R157); the web service checks its flags. */
  web: WebGrant;
  /**
   * Production has no user grant here: the host mints `credentials_token` whenever a declared
   * credential maps to an OAuth provider (R66). The policy can still withhold it (no token,
   * -32061) or narrow `providers`; an empty or missing list means every declared provider.
   */
  credentials: CredentialsGrant;
}

export type Grant = GrantByFamily[GrantFamily];

/**
 * Gate 3 (H13): what the user granted this tool. `undefined` means not granted. Called once per
 * invoke and family (the answer is pinned for the invoke, like the token that carries it).
 */
export interface GrantPolicy {
  isGranted<F extends GrantFamily>(
    userId: string,
    toolId: string,
    family: F,
    invoke?: GrantInvoke,
  ): GrantByFamily[F] | undefined | Promise<GrantByFamily[F] | undefined>;
}

/** What the policy may know about the invoke it answers for (app-scoped grants, R157, L11338). */
export interface GrantInvoke {
  /** The Anna App the invoke comes from, when it comes from one. */
  app?: { appId: string; appScopeGranted: boolean };
}

/** The same grants for every user and tool: dev harness and tests. */
export function createStaticGrantPolicy(grants: Partial<GrantByFamily>): GrantPolicy {
  return {
    isGranted<F extends GrantFamily>(_userId: string, _toolId: string, family: F) {
      return grants[family] as GrantByFamily[F] | undefined;
    },
  };
}

/** Everything granted with the spec defaults. */
export function createAllowAllGrantPolicy(): GrantPolicy {
  return createStaticGrantPolicy({
    sampling: {},
    agent: {},
    storage: {},
    files: {},
    image: { generate: true, edit: true },
    upload: {},
    embeddings: {},
    web: WEB_GRANT_ALL,
    credentials: {},
  });
}
