// Temp app projects for the validate tests: a map of relative path → content (objects are
// written as pretty JSON), removed when the test ends.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { onTestFinished } from "vitest";
import type { Diagnostic } from "../../src/validate/diagnostic.js";

export type ProjectFiles = Record<string, string | object | null>;

export function writeProject(files: ProjectFiles): string {
  const dir = mkdtempSync(path.join(tmpdir(), "anna-validate-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  writeFiles(dir, files);
  return dir;
}

export function writeFiles(dir: string, files: ProjectFiles): void {
  for (const [rel, content] of Object.entries(files)) {
    if (content === null) continue;
    const file = path.join(dir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      typeof content === "string" ? content : JSON.stringify(content, null, 2) + "\n",
    );
  }
}

export const VALID_MANIFEST = {
  schema: 2,
  required_executas: [{ tool_id: "bundled:focus" }],
  permissions: ["tools.invoke", "storage.read", "storage.write"],
  ui: {
    bundle: { entry: "index.html" },
    views: [
      {
        name: "main",
        title: "Focus Flow",
        default: true,
        icon: "icon.svg",
        min_size: { w: 320, h: 240 },
        default_size: { w: 640, h: 480 },
      },
    ],
    host_api: { tools: ["required:*"], storage: ["get", "set"] },
  },
};

export const VALID_APP_JSON = {
  name: "Focus Flow",
  slug: "focus-flow",
  category: "productivity",
  bundled_executas: { focus: { path: "executas/focus" } },
};

const VALID_SKILL = [
  "---",
  "name: focus-coach",
  "description: Suggests a focus plan for the session.",
  'metadata: {"matrix":{"emoji":"🎯","execution_mode":"prompt","category_name":"productivity"}}',
  "---",
  "",
  "# Focus coach",
  "",
  "Suggest a plan.",
  "",
].join("\n");

/** A project every layer accepts without errors or warnings, --strict included. */
export function validProject(overrides: ProjectFiles = {}): ProjectFiles {
  return {
    "manifest.json": VALID_MANIFEST,
    "app.json": VALID_APP_JSON,
    "bundle/index.html": '<!doctype html><script type="module" src="app.js"></script>\n',
    "bundle/icon.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>\n",
    "bundle/app.js":
      "export async function start(anna) {\n  const last = await anna.storage.get({ key: 'last' });\n  await anna.storage.set({ key: 'last', value: Date.now() });\n  return anna.tools.invoke({ tool_id: 'x', args: { last } });\n}\n",
    "executas/focus/executa.json": { tool_id: "tool-dev-focus-session", type: "node" },
    "executas/focus/package.json": { name: "focus", bin: { "tool-dev-focus-session": "main.js" } },
    "executas/focus/main.js": "\n",
    "executas/focus-coach/SKILL.md": VALID_SKILL,
    ...overrides,
  };
}

/** `file:line:col code` per finding: compact for assertions. */
export function brief(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map(
    (d) => `${d.severity} ${d.code} ${d.file}:${d.line}:${d.column} ${d.pointer}`,
  );
}
