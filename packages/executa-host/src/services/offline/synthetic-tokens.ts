// Token counts for the offline model side. No tokenizer ships with the host, so a token is
// approximated as 4 characters (Unicode code points, as Python's len counts them), rounded up:
// close enough for English with common BPE vocabularies, deterministic on every machine, and an
// integer the router's per-invoke budget can add up (D-host-78).

/** Characters per approximated token. */
export const CHARS_PER_TOKEN = 4;

/** Code points, not UTF-16 units: an emoji is one character. */
export function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** `ceil(chars / 4)`; the empty string costs nothing. */
export function approxTokens(text: string): number {
  return Math.ceil(charCount(text) / CHARS_PER_TOKEN);
}

/** The longest prefix that fits in `maxTokens` approximated tokens, cut on a code point. */
export function truncateToTokens(
  text: string,
  maxTokens: number,
): { text: string; truncated: boolean } {
  const maxChars = Math.max(0, Math.floor(maxTokens)) * CHARS_PER_TOKEN;
  if (text.length <= maxChars) return { text, truncated: false };
  const chars = Array.from(text);
  if (chars.length <= maxChars) return { text, truncated: false };
  return { text: chars.slice(0, maxChars).join(""), truncated: true };
}

/** The first `max` code points. */
export function firstChars(text: string, max: number): string {
  if (text.length <= max) return text;
  return Array.from(text).slice(0, max).join("");
}
