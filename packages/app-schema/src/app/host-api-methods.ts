/**
 * The Host API method table (Reference L10106–L10210 and the per-namespace pages; inventory K):
 * every method an app bundle can call, by namespace, plus the grant grammar of
 * `ui.host_api.<ns>` (ruling A1: method names, with `read`/`write`/`*` as aliases).
 */

export const HOST_API_METHODS = Object.freeze({
  window: Object.freeze([
    "hello",
    "ready",
    "heartbeat",
    "set_title",
    "resize",
    "focus",
    "close",
    "open_view",
    "report_error",
  ] as const),
  tools: Object.freeze([
    "list",
    "invoke",
    "invokeAsync",
    "getJob",
    "cancelJob",
    "listJobs",
  ] as const),
  chat: Object.freeze(["read_history", "write_message", "append_artifact"] as const),
  storage: Object.freeze(["get", "set", "delete", "list"] as const),
  files: Object.freeze([
    "upload_init",
    "upload_finalize",
    "download_url",
    "download",
    "list",
    "delete",
  ] as const),
  llm: Object.freeze(["complete", "stream", "embed"] as const),
  agent: Object.freeze([
    "session.create",
    "session.run",
    "session.cancel",
    "session.history",
    "session.list",
    "session.delete",
    "session.refresh",
    "session.catalog",
  ] as const),
  image: Object.freeze(["generate", "edit"] as const),
  upload: Object.freeze(["inline", "negotiate", "confirm"] as const),
  web: Object.freeze(["search", "fetch", "image_search", "image_fetch"] as const),
  credentials: Object.freeze(["list_accounts", "get_token"] as const),
  apps: Object.freeze([
    "list",
    "search",
    "get",
    "launch",
    "deck.list",
    "deck.add",
    "deck.remove",
    "deck.reorder",
  ] as const),
  /** Reserved stubs: registered, answer `not_implemented` (R160). */
  artifact: Object.freeze(["create", "update", "delete"] as const),
  fs: Object.freeze(["read", "write"] as const),
  prefs: Object.freeze(["get"] as const),
});

export type HostApiNamespace = keyof typeof HOST_API_METHODS;
export type HostApiMethod<N extends HostApiNamespace = HostApiNamespace> =
  (typeof HOST_API_METHODS)[N][number];

export const HOST_API_NAMESPACES = Object.freeze(
  Object.keys(HOST_API_METHODS) as HostApiNamespace[],
);

/** Namespaces whose grant list is not method names: tool refs, provider ids, a structured object. */
export const NON_METHOD_GRANT_NAMESPACES = Object.freeze([
  "tools",
  "credentials",
  "agent",
] as const);

/** `window.*` is always granted (L5675); listing it in `host_api` is documentary. */
export const ALWAYS_GRANTED_NAMESPACES = Object.freeze(["window"] as const);

/** Methods that bypass the ACL entirely: the handshake (R99). */
export const ACL_BYPASS_METHODS = Object.freeze([
  "window.hello",
  "window.ready",
  "window.report_error",
] as const);

/** Camel-case spellings the dispatcher also routes (R155, R156). */
export const HOST_API_METHOD_SPELLINGS: Readonly<Record<string, string>> = Object.freeze({
  "web.imageSearch": "image_search",
  "web.imageFetch": "image_fetch",
});

/**
 * Grant aliases (ruling A1, inventory Z1): the manifest guide's table uses `read`/`write`
 * (L5680–L5685) where the dispatcher checks method names. `*` grants every method.
 */
export const HOST_API_GRANT_ALIASES: Readonly<
  Record<string, Readonly<Record<string, readonly string[]>>>
> = Object.freeze({
  storage: { read: ["get", "list"], write: ["set", "delete"] },
  chat: { read: ["read_history"] },
  prefs: { read: ["get"] },
});

export function isHostApiNamespace(value: string): value is HostApiNamespace {
  return Object.hasOwn(HOST_API_METHODS, value);
}

/** True when `method` is a real method of `namespace` (camel-case spellings included). */
export function isHostApiMethod(namespace: string, method: string): boolean {
  if (!isHostApiNamespace(namespace)) return false;
  const methods: readonly string[] = HOST_API_METHODS[namespace];
  return (
    methods.includes(method) || HOST_API_METHOD_SPELLINGS[`${namespace}.${method}`] !== undefined
  );
}

/** True when `token` is valid in a `ui.host_api.<namespace>` method list (a method, alias or `*`). */
export function isHostApiGrantToken(namespace: string, token: string): boolean {
  if (token === "*") return true;
  if (isHostApiMethod(namespace, token)) return true;
  return HOST_API_GRANT_ALIASES[namespace]?.[token] !== undefined;
}

/**
 * The methods a method-list grant opens: `["read", "set"]` on `storage` → `get, list, set`.
 * `*` expands to every method; unknown tokens are dropped (the validator reports them).
 * Not for `tools` (refs), `credentials` (providers) or `agent` (structured).
 */
export function expandHostApiGrant(namespace: string, tokens: readonly string[]): string[] {
  if (!isHostApiNamespace(namespace)) return [];
  const all: readonly string[] = HOST_API_METHODS[namespace];
  const out = new Set<string>();
  for (const token of tokens) {
    if (token === "*") {
      for (const method of all) out.add(method);
      continue;
    }
    const alias = HOST_API_GRANT_ALIASES[namespace]?.[token];
    if (alias !== undefined) {
      for (const method of alias) out.add(method);
      continue;
    }
    const spelled = HOST_API_METHOD_SPELLINGS[`${namespace}.${token}`];
    if (spelled !== undefined) out.add(spelled);
    else if (all.includes(token)) out.add(token);
  }
  return all.filter((method) => out.has(method));
}

/**
 * The legal `ui.host_api.agent.tools` / `allowed_tools` names: the sandbox registry (R96).
 * Other names are silently dropped by the platform, so validators warn about them.
 */
export const AGENT_SANDBOX_TOOLS = Object.freeze([
  "web_search",
  "sheet_read",
  "doc_read",
  "fs_read_file",
  "fs_write_file",
  "fs_list_directory",
  "fs_copy_file",
  "fs_move_file",
  "fs_delete_file",
  "fs_search",
  "fs_get_info",
  "fs_exists",
  "fs_mkdir",
  "exec_run",
  "exec_run_commands",
  "browser_create_instance",
  "browser_navigate",
  "browser_get_html",
  "browser_click",
  "browser_fill",
  "browser_screenshot",
  "browser_scroll",
  "browser_execute_script",
  "browser_wait_for_element",
  "browser_toolkit",
] as const);
