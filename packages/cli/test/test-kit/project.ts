// A throwaway app project on disk (manifest.json, app.json, executas/<handle>/executa.json),
// removed when the test finishes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { onTestFinished } from "vitest";

export interface ProjectFiles {
  [relativePath: string]: unknown;
}

/** Writes each file (objects as JSON, strings as given) and returns the project's folder. */
export function tempProject(files: ProjectFiles): string {
  const dir = mkdtempSync(path.join(tmpdir(), "mount-bundle-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

export const TIMER_TOOL_ID = "tool-test-focus-session-12345678";

export const MANIFEST = {
  schema: 2,
  id: "focus-flow",
  required_executas: ["bundled:focus-session"],
  ui: {
    bundle: { entry: "index.html" },
    views: [{ name: "main", title: "Focus" }],
    host_api: {
      tools: ["required:bundled:focus-session"],
      storage: ["get", "set", "delete", "list"],
      chat: ["write_message"],
    },
  },
};

/** The Focus Flow shape: `app.json` keyed by handle, the executa's own `tool_id`. */
export function focusProject(extra: ProjectFiles = {}): string {
  return tempProject({
    "manifest.json": MANIFEST,
    "app.json": {
      name: "Focus Flow",
      slug: "focus-flow",
      category: "productivity",
      bundled_executas: { "focus-session": { path: "executas/focus-session" } },
    },
    "executas/focus-session/executa.json": { tool_id: TIMER_TOOL_ID, type: "tool" },
    "bundle/index.html": "<!doctype html>",
    ...extra,
  });
}
