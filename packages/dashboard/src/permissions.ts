// What an app may do, in words, from what its manifest requests (`permissions`, shown at install
// per ruling A2, and `ui.host_api`, the runtime gate). Unknown names are shown as they are, so
// a permission added on the server is never hidden.

/** Every manifest permission (app-schema APP_PERMISSIONS; a test keeps the two in step). */
export const PERMISSION_WORDS: Readonly<Record<string, string>> = {
  "ui.svg": "Show its own SVG graphics in its window",
  "fs.read": "Read files you give it",
  "fs.write": "Write files",
  "tools.invoke": "Run its bundled tools for you",
  "chat.read": "Read the conversation it is opened in",
  "chat.write_message": "Write messages into your conversation",
  "chat.append_artifact": "Attach artifacts to your conversation",
  "artifact.create": "Create artifacts",
  "artifact.update": "Change artifacts",
  "artifact.delete": "Delete artifacts",
  "llm.complete": "Ask the AI model questions on your behalf",
  "storage.read": "Read the data it saved for you",
  "storage.write": "Save data for you",
  "prefs.read": "Read your preferences (language, theme)",
};

const HOST_API_WORDS: Readonly<Record<string, string>> = {
  tools: "call tools",
  chat: "use the conversation",
  artifact: "work with artifacts",
  llm: "use the AI model",
  agent: "run agent sessions",
  storage: "use its storage",
  fs: "use files",
  prefs: "read preferences",
  image: "make images",
  upload: "upload files",
  window: "manage its windows",
};

export interface Requested {
  host_api: Record<string, unknown>;
  permissions: unknown[];
  host_capabilities: unknown[];
}

/** One line per thing the app may do, permissions first, then Host API areas and capabilities. */
export function describeRequested(requested: Requested): string[] {
  const lines: string[] = [];
  for (const p of requested.permissions) {
    const name = String(p);
    lines.push(PERMISSION_WORDS[name] ?? `Use the “${name}” permission`);
  }
  for (const [namespace, methods] of Object.entries(requested.host_api)) {
    if (namespace === "window") continue;
    const area = HOST_API_WORDS[namespace] ?? `use the “${namespace}” Host API`;
    const list = Array.isArray(methods) ? methods.map(String).join(", ") : "";
    lines.push(`May ${area}${list ? ` (${list})` : ""}`);
  }
  for (const c of requested.host_capabilities)
    lines.push(`Needs the host capability “${String(c)}”`);
  return lines;
}
