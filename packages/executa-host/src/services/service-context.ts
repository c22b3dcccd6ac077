import type { Grant } from "./grants.js";

/**
 * Everything a host service learns about the reverse call it serves. The router builds it after
 * correlation and the gates, so a service never re-checks grants or budgets the router owns.
 */
export interface ServiceContext<G extends Grant = Grant> {
  /** Owner of the plugin process (H11). */
  userId: string;
  /** Identity of the Executa (H16). */
  toolId: string;
  /** The invoke this call runs on behalf of (T12). */
  invokeId: string;
  /** `context.plugin_name` of the invoke (label for agent sessions, logs). */
  pluginName: string;
  /** The tool being invoked. */
  tool: string;
  /** Epoch ms at which the host gives up on the parent invoke (H5). */
  deadlineMs: number;
  /** Aborts when the plugin goes away or the parent invoke ends. */
  signal: AbortSignal;
  /** The user's grant for this family, as pinned when the invoke began. */
  grant: G;
  /** Set when the invoke comes from an Anna App (H14). */
  app?: { appId: string; appScopeGranted: boolean };
  /**
   * The per-invoke token of this family when the router minted one (H15). A Nexus-backed
   * service forwards it as `Authorization: Bearer …`; never log it.
   */
  token?: string;
}
