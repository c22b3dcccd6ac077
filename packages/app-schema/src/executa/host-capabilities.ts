/**
 * `_ALLOWED_HOST_CAPABILITIES`, shared by Executa and App manifests (L4960). The publish
 * validator rejects anything else; the host only warns (real-world plugins must keep working).
 */
export const HOST_CAPABILITIES = Object.freeze([
  "llm.sample",
  "llm.complete",
  "llm.embed",
  "llm.agent.auto",
  "llm.agent.fixed",
  "llm.image",
  "llm.image.edit",
  "web.search",
  "web.fetch",
  "web.image_search",
  "web.image_fetch",
  "host.upload",
  "aps.kv",
  "aps.files",
  "aps.scope.user.read",
  "aps.scope.user.write",
  "aps.scope.app.read",
  "aps.scope.app.write",
  "aps.scope.tool.read",
  "aps.scope.tool.write",
  "aps.scope.admin",
] as const);

export type HostCapability = (typeof HOST_CAPABILITIES)[number];

const KNOWN = new Set<string>(HOST_CAPABILITIES);

export function isHostCapability(value: string): value is HostCapability {
  return KNOWN.has(value);
}

/**
 * `storage`, `storage.user|app|tool|read|write` look plausible but are not capability strings
 * (L1191, Z12): scopes come from the user's grant, and the families need `aps.kv`/`aps.files`.
 */
export function isStorageCapabilityMistake(value: string): boolean {
  return value === "storage" || value.startsWith("storage.");
}
