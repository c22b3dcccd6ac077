// The seam between process supervision (src/process) and reverse-RPC routing (src/router).
// A PluginProcess owns the stdio peer; every reverse request the plugin sends is handed to the
// RouterSession attached to that process, and every invoke is bracketed by begin/endInvoke so the
// router can mint per-invoke tokens, keep budgets and correlate reverse calls (T12, H13, H15).

/** What the router knows about one running plugin process. */
export interface PluginSessionInfo {
  /** Identity (H16): from executa.json or the registry, never the manifest name. */
  toolId: string;
  /** Owner of the process (H11: one process per user and tool_id). */
  userId: string;
  /** `context.plugin_name` sent with every invoke (manifest name, else the tool_id). */
  pluginName: string;
  /** "2.0" when initialize succeeded, else "1.1" (H7). */
  protocolVersion: "1.1" | "2.0";
  /** Union of the plugin's `capabilities` and `client_capabilities` from its initialize result. */
  pluginCapabilities: Readonly<Record<string, unknown>>;
  /** `host_capabilities` from the describe manifest (missing = none declared). */
  hostCapabilities: readonly string[];
  /**
   * `credentials[].name` from the describe manifest: the ones that map to an OAuth provider
   * unlock `credentials/*` (R66). Missing = none declared.
   */
  credentialNames?: readonly string[];
}

/** One invoke about to be sent to the plugin. */
export interface InvokeStart {
  invokeId: string;
  tool: string;
  /** Epoch ms after which the host gives up (H5); also sent as `context.deadline_ms`. */
  deadlineMs: number;
  /** Set when the invoke comes from an Anna App whose grant includes its `app` storage scope (H14). */
  app?: { appId: string; appScopeGranted: boolean };
}

export interface RouterSession {
  /**
   * Prepare per-invoke state (budgets, correlation) and return the extra `context` fields to send
   * with the invoke: the per-invoke tokens (`sampling_token`, `storage_token`, `image_token`,
   * `upload_token`, `credentials_token`, …) for every family that is negotiated, declared and
   * granted. A plain value when nothing had to be awaited (a grant policy answering with plain
   * values and no token issuer): the invoke then leaves without a microtask turn. Failures are
   * always a rejected promise.
   */
  beginInvoke(start: InvokeStart): Record<string, string> | Promise<Record<string, string>>;
  /** The invoke finished (any outcome). Later reverse calls naming it get UNKNOWN_INVOKE_CONTEXT. */
  endInvoke(invokeId: string): void;
  /**
   * Serve one reverse request. Resolves with the JSON-RPC `result`; rejects with an `RpcError`
   * from @anna-ai/jsonrpc whose `data.errorCode` names the failure (H12). `signal` aborts when the
   * plugin process goes away.
   */
  handleRequest(method: string, params: unknown, signal: AbortSignal): Promise<unknown>;
  /** Serve one reverse notification (`executa/progress`); never throws. */
  handleNotification(method: string, params: unknown): void;
  /** The process is gone: drop every per-invoke state. */
  dispose(): void;
}

/** Creates a RouterSession per plugin process. Implemented by ReverseRpcRouter. */
export interface RouterSessionFactory {
  attach(session: PluginSessionInfo): RouterSession;
}
