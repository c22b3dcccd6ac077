// What the user is told when a mention does nothing or something was left out of the prompt.
// Each says what happened and what to do about it, naming the API call the dashboard makes.

export const notices = {
  appNotInstalled: (slug: string, executaSlug?: string) =>
    `#${slug} was not applied: you have no app "${slug}" installed. Install it from the App Store (POST /api/v1/store/apps/${slug}/install) and mention it again.` +
    (executaSlug !== undefined
      ? ` (There is an executa @${executaSlug}: did you mean @${executaSlug}?)`
      : ""),
  appDisabled: (slug: string) =>
    `#${slug} was not applied: the app is installed but disabled. Enable it in My Apps (PATCH /api/v1/me/apps/${slug} with {"enabled": true}) and mention it again.`,
  tooManyApps: (skipped: readonly string[], max: number) =>
    `Only the first ${max} mentioned apps were applied; ${skipped.map((s) => `#${s}`).join(", ")} ${skipped.length === 1 ? "was" : "were"} not. Mention fewer apps per message.`,
  executaNotInstalled: (name: string, appSlug?: string) =>
    `@${name} was not applied: you have no executa "${name}" installed. Install it from the Executa Hub (PUT /api/v1/me/executas/{tool_id}) and mention it again.` +
    (appSlug !== undefined ? ` (There is an app #${appSlug}: did you mean #${appSlug}?)` : ""),
  executaDisabled: (name: string, toolId: string) =>
    `@${name} was not applied: the executa is installed but disabled. Enable it (PATCH /api/v1/me/executas/${toolId} with {"enabled": true}) and mention it again.`,
  tooManyExecutas: (skipped: readonly string[], max: number) =>
    `Only the first ${max} mentioned executas were applied; ${skipped.map((s) => `@${s}`).join(", ")} ${skipped.length === 1 ? "was" : "were"} not.`,
  requiredExecutaMissing: (appSlug: string, toolId: string) =>
    `#${appSlug} needs the executa ${toolId}, which you do not have; its tools are missing from this turn. Install the app again (POST /api/v1/store/apps/${appSlug}/install) to add it.`,
  bundledExecutaDisabled: (appSlug: string, toolId: string) =>
    `#${appSlug} uses the executa ${toolId}, which you disabled; its tools are missing from this turn. Enable it (PATCH /api/v1/me/executas/${toolId} with {"enabled": true}) to use them.`,
  toolsCapped: (dropped: readonly string[], max: number) =>
    `This turn offers the model at most ${max} tools; ${dropped.length} were left out: ${preview(dropped)}. Mention an executa with @ (or an app with #) to bring its tools first.`,
  skillsIndexCapped: (omitted: number) =>
    `${omitted} skills were left out of the model's skill list to keep the prompt small; they still load when named.`,
  systemSectionDropped: (what: string, max: number) =>
    `The system prompt would pass ${max} characters, so ${what} ${what.endsWith("s") ? "were" : "was"} left out of this turn.`,
  historyTrimmed: (dropped: number) =>
    `The ${dropped} oldest messages of this conversation were left out of the model's view to stay within its size limit.`,
};

const PREVIEW_MAX = 10;

function preview(names: readonly string[]): string {
  const shown = names.slice(0, PREVIEW_MAX).join(", ");
  return names.length > PREVIEW_MAX ? `${shown}, …` : shown;
}
