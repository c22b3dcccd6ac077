// Bounds on what one turn's prompt may hold. Past each, assembly leaves things out in a stated
// order and says so in a notice, rather than letting the provider reject the request.

export interface PromptLimits {
  /** OpenAI rejects more than 128 tools; Anthropic and local servers slow down well before. */
  maxTools: number;
  /** Apps activated by one turn; each brings an addendum of up to 4000 characters. */
  maxMentionedApps: number;
  /** Executas activated by `@mention` in one turn. */
  maxMentionedExecutas: number;
  /** The `<available_skills>` block; skills past it stay loadable by name. */
  maxSkillsIndexChars: number;
  /** The whole system prompt, skills and app blocks included. */
  maxSystemChars: number;
  /** The conversation before this message; the oldest messages go first. */
  maxHistoryChars: number;
}

export const DEFAULT_PROMPT_LIMITS: Readonly<PromptLimits> = Object.freeze({
  maxTools: 128,
  maxMentionedApps: 8,
  maxMentionedExecutas: 8,
  maxSkillsIndexChars: 24_000,
  maxSystemChars: 120_000,
  maxHistoryChars: 400_000,
});

export function promptLimits(overrides: Partial<PromptLimits> = {}): PromptLimits {
  const out: PromptLimits = { ...DEFAULT_PROMPT_LIMITS };
  for (const key of Object.keys(DEFAULT_PROMPT_LIMITS) as (keyof PromptLimits)[]) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(
        `prompt limit ${key} must be a non-negative integer, not ${String(value)} (default ${DEFAULT_PROMPT_LIMITS[key]})`,
      );
    }
    out[key] = value;
  }
  return out;
}
