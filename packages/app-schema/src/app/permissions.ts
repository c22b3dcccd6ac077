/**
 * Top-level manifest `permissions`: `_ALLOWED_PERMISSIONS` (L4947–L4956), a strict allow-list.
 * Per ruling A2 they are validated, shown at install and audited; `ui.host_api` is the gate.
 */
export const APP_PERMISSIONS = Object.freeze([
  "ui.svg",
  "fs.read",
  "fs.write",
  "tools.invoke",
  "chat.read",
  "chat.write_message",
  "chat.append_artifact",
  "artifact.create",
  "artifact.update",
  "artifact.delete",
  "llm.complete",
  "storage.read",
  "storage.write",
  "prefs.read",
] as const);

export type AppPermission = (typeof APP_PERMISSIONS)[number];

const KNOWN = new Set<string>(APP_PERMISSIONS);

export function isAppPermission(value: string): value is AppPermission {
  return KNOWN.has(value);
}

/**
 * The permission the guide's matrix (L6625–L6649) pairs with a Host API method. Methods it does
 * not list (window.*, tools.list, agent.*, image.*, upload.*, …) need none.
 */
export const PERMISSION_FOR_METHOD: Readonly<Record<string, AppPermission>> = Object.freeze({
  "tools.invoke": "tools.invoke",
  "chat.read_history": "chat.read",
  "chat.write_message": "chat.write_message",
  "chat.append_artifact": "chat.append_artifact",
  "artifact.create": "artifact.create",
  "artifact.update": "artifact.update",
  "artifact.delete": "artifact.delete",
  "llm.complete": "llm.complete",
  "fs.read": "fs.read",
  "fs.write": "fs.write",
  "storage.get": "storage.read",
  "storage.list": "storage.read",
  "storage.set": "storage.write",
  "storage.delete": "storage.write",
  "prefs.get": "prefs.read",
});

/** `permissionForMethod("storage", "set")` → `"storage.write"`; `undefined` when none applies. */
export function permissionForMethod(namespace: string, method: string): AppPermission | undefined {
  return PERMISSION_FOR_METHOD[`${namespace}.${method}`];
}
