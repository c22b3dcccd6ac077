// `#app` and `@executa` completion in the composer: which mention the caret is in, which of the
// user's apps or executas fit it, and the text with the chosen one put in. The shape follows
// the server's parser (decisions D-agent-14): a mention starts the text or follows whitespace,
// an opening bracket or a quote, and its name is slug-shaped. `#` takes an app's slug, `@` an
// executa's tool id (the server resolves `@` by tool id first).

export interface MentionQuery {
  sigil: "#" | "@";
  /** What was typed after the sigil (may be empty). */
  typed: string;
  /** Where the sigil is in the text. */
  start: number;
  /** The caret: the mention runs from `start` to here. */
  end: number;
}

export interface MentionOption {
  /** What goes after the sigil: an app's slug or an executa's tool id. */
  value: string;
  label: string;
  detail: string | null;
}

/** Options the list shows at most. */
export const MAX_MENTION_OPTIONS = 8;

const MENTION_BEFORE_CARET = /(?:^|[\s([{"'])([#@])([A-Za-z0-9_-]*)$/;

export function mentionAt(text: string, caret: number): MentionQuery | null {
  const m = MENTION_BEFORE_CARET.exec(text.slice(0, caret));
  if (!m) return null;
  const sigil = m[1] as "#" | "@";
  const typed = m[2] ?? "";
  return { sigil, typed, start: caret - typed.length - 1, end: caret };
}

/** Options whose value or label starts with what was typed first, then those containing it. */
export function matchOptions(options: readonly MentionOption[], typed: string): MentionOption[] {
  const q = typed.toLowerCase();
  const starts: MentionOption[] = [];
  const contains: MentionOption[] = [];
  for (const o of options) {
    const v = o.value.toLowerCase();
    const l = o.label.toLowerCase();
    if (v.startsWith(q) || l.startsWith(q)) starts.push(o);
    else if (v.includes(q) || l.includes(q)) contains.push(o);
  }
  return [...starts, ...contains].slice(0, MAX_MENTION_OPTIONS);
}

/** The text with the mention replaced by the chosen one and a space, and the caret after it. */
export function applyMention(
  text: string,
  q: MentionQuery,
  value: string,
): { text: string; caret: number } {
  const inserted = `${q.sigil}${value} `;
  const rest = text
    .slice(q.end)
    .replace(/^[A-Za-z0-9_-]*/, "")
    .replace(/^ /, "");
  return { text: text.slice(0, q.start) + inserted + rest, caret: q.start + inserted.length };
}
