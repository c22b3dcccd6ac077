// The `<user_mentioned_apps>` block (A38–A42, the form of L6699–L6715 for every app, schema 1
// included, which nests the `<app><system_prompt_addendum>` of L5062). Every piece of author text
// is escaped, so an addendum that writes `</system_prompt_addendum>` or `</app>` stays inside its
// fence as text (A39). The block is not indented, so author text keeps its lines exactly.

import type { AgentTool } from "../turns/types.js";
import type { BundledExecuta } from "./executa-tools.js";
import type { PromptApp } from "./prompt-input.js";
import { attrs, element } from "./xml.js";

export interface AppBlockInput {
  app: PromptApp;
  bundled: readonly BundledExecuta[];
  /** The turn's tools by executa tool id, to document them under `<bundled_executas>`. */
  toolsByExecuta: ReadonlyMap<string, readonly AgentTool[]>;
}

const APPS_PREAMBLE =
  "The user mentioned these apps with # in this message. Each app's system_prompt_addendum is authoritative for this turn; use its bundled executas' tools to do what it describes.";

export function renderAppsBlock(apps: readonly AppBlockInput[]): string {
  if (apps.length === 0) return "";
  const blocks = apps.map(renderApp);
  const parts = [
    APPS_PREAMBLE,
    ["<user_mentioned_apps>", ...blocks, "</user_mentioned_apps>"].join("\n"),
  ];
  const prefix = firstPrefixTemplate(apps.map((a) => a.app));
  if (prefix !== undefined) {
    // A40: a hint only. The user's message is not rewritten.
    parts.push(
      `The app ${prefix.slug} frames user messages with the template below, where {user_message} stands for what the user wrote. The message you receive has not been rewritten: read it as if it had been.`,
      element("user_message_prefix_template", prefix.template, { app: prefix.slug }),
    );
  }
  return parts.join("\n");
}

function renderApp({ app, bundled, toolsByExecuta }: AppBlockInput): string {
  const lines = [`<app${attrs({ slug: app.slug, name: app.name, version: app.version })}>`];
  if (app.tagline !== undefined && app.tagline !== "") lines.push(element("tagline", app.tagline));
  const addendum = app.manifest.system_prompt_addendum;
  if (typeof addendum === "string" && addendum.trim() !== "") {
    lines.push(element("system_prompt_addendum", addendum));
  }
  if (bundled.length > 0) {
    const items = bundled.map((b) => renderBundled(b, toolsByExecuta.get(b.toolId) ?? []));
    lines.push("<bundled_executas>", ...items, "</bundled_executas>");
  }
  const views = app.manifest.schema === 2 ? (app.manifest.ui?.views ?? []) : [];
  if (views.length > 0) {
    const items = views.map(
      (v) =>
        `<view${attrs({
          name: v.name,
          title: v.title,
          default: v.default === true ? "true" : undefined,
          summary_template: v.summary_template ?? undefined,
        })} />`,
    );
    lines.push("<ui_views>", ...items, "</ui_views>");
  }
  lines.push("</app>");
  return lines.join("\n");
}

function renderBundled(b: BundledExecuta, tools: readonly AgentTool[]): string {
  const head = attrs({
    tool_id: b.toolId,
    name: b.executa?.name,
    required: b.required ? "true" : "false",
    status: b.status,
  });
  if (tools.length === 0) return `<executa${head} />`;
  const docs = tools.map((t) => element("tool", t.description ?? "", { name: t.name }));
  return [`<executa${head}>`, ...docs, "</executa>"].join("\n");
}

/** A41: the template of the first mentioned app that has a non-empty one. */
function firstPrefixTemplate(
  apps: readonly PromptApp[],
): { slug: string; template: string } | undefined {
  for (const app of apps) {
    const template = app.manifest.user_message_prefix_template;
    if (typeof template === "string" && template.trim() !== "") return { slug: app.slug, template };
  }
  return undefined;
}

/** True when any activated app has UI views: then the app-view tools join the turn (A42, L6692). */
export function anyAppHasViews(apps: readonly PromptApp[]): boolean {
  return apps.some((a) => a.manifest.schema === 2 && (a.manifest.ui?.views?.length ?? 0) > 0);
}
