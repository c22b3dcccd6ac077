// Which installed executas a turn can reach, decided before anything is started: the ones the
// user installed themselves (offered every turn), the ones bundled by the apps the message
// `#mention`s (installed and enabled), and the ones it `@mention`s. Only those are prepared, so a
// turn never waits on (or reports the failure of) a plugin it could not call. The same rules as
// prompt assembly's (A35, A37), which still makes the final choice and writes the notices.
import { parseMentions, type PromptApp } from "@anna-ai/agent";
import { normalizeExecutaRef } from "@anna-ai/app-schema";
import type { InstalledExecuta } from "./installed-for-turn.js";

export interface TurnNeeds {
  /** The `#mention`ed apps the user has installed and enabled, in mention order. */
  apps: PromptApp[];
  /** Tool ids of the executas this turn may call or load (tools and skills alike). */
  toolIds: Set<string>;
}

export function turnNeeds(
  text: string,
  apps: readonly PromptApp[],
  executas: readonly InstalledExecuta[],
  clientMentions: { apps?: readonly string[]; executas?: readonly string[] } = {},
): TurnNeeds {
  const parsed = parseMentions(text);
  const appNames = new Set([
    ...parsed.apps.map((m) => m.name),
    ...(clientMentions.apps ?? []).map((n) => n.toLowerCase()),
  ]);
  const executaNames = new Set([
    ...parsed.executas.map((m) => m.name),
    ...(clientMentions.executas ?? []).map((n) => n.toLowerCase()),
  ]);
  const mentioned = apps.filter(
    (a) => a.enabled && (appNames.has(a.slug) || appNames.has(a.appId.toLowerCase())),
  );
  const toolIds = new Set<string>();
  for (const app of mentioned) {
    for (const ref of [
      ...(app.manifest.required_executas ?? []),
      ...(app.manifest.optional_executas ?? []),
    ]) {
      toolIds.add(normalizeExecutaRef(ref).tool_id);
    }
  }
  for (const e of executas) {
    if (!e.enabled) continue;
    if (
      e.source === "user" ||
      executaNames.has(e.toolId.toLowerCase()) ||
      executaNames.has(e.slug.toLowerCase())
    ) {
      toolIds.add(e.toolId);
    }
  }
  return { apps: mentioned, toolIds };
}
