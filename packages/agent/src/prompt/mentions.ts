// `#app` and `@executa` mentions in a user's message (L165, L184). The spec shows the syntax only
// by example (`#weekly-review`), so the rules here are ours (decision "mention syntax"):
// - a mention starts the text or follows whitespace or an opening bracket or quote, so `C#`,
//   `a@b.com` and `page#anchor` are not mentions;
// - the name is slug-shaped (letters, digits, `-`, `_`, starting and ending with a letter or
//   digit) and holds at least one letter, so `#1` and `#2024` stay ordinary text;
// - trailing punctuation ends it (`#focus-flow,` names `focus-flow`); names are lowercased;
// - nothing inside a code span or a fenced code block counts;
// - each name counts once, at its first position, and order is preserved (A41).

export type MentionKind = "app" | "executa";

export interface Mention {
  kind: MentionKind;
  /** Lowercased name as typed. */
  name: string;
  /** Offset of the `#`/`@` in the text. */
  index: number;
}

const MENTION =
  /(^|[\s([{"'“‘«<])([#@])([A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?)(?![A-Za-z0-9_-]*[A-Za-z0-9])/g;
const HAS_LETTER = /[a-z]/;

/** Mentions of each kind in order of first appearance, code excluded. */
export function parseMentions(text: string): { apps: Mention[]; executas: Mention[] } {
  const masked = maskCode(text);
  const apps: Mention[] = [];
  const executas: Mention[] = [];
  const seen = new Set<string>();
  for (const match of masked.matchAll(MENTION)) {
    const lead = match[1] ?? "";
    const sigil = match[2];
    const name = (match[3] ?? "").toLowerCase();
    if (!HAS_LETTER.test(name)) continue;
    const kind: MentionKind = sigil === "#" ? "app" : "executa";
    const key = `${kind}:${name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const mention = { kind, name, index: (match.index ?? 0) + lead.length };
    (kind === "app" ? apps : executas).push(mention);
  }
  return { apps, executas };
}

/**
 * The text with every code span and fenced block replaced by spaces (offsets kept), following
 * CommonMark's shape: a fence is a line opening with 3+ backticks or tildes and runs to a line
 * closing it with at least as many (or to the end); a span is a run of N backticks closed by the
 * next run of exactly N. An unclosed span is literal text, as in Markdown.
 */
export function maskCode(text: string): string {
  // UTF-16 units, not code points: a blanked unit keeps every later offset where it was.
  const chars = text.split("");
  const blank = (from: number, to: number): void => {
    for (let i = from; i < to; i++) if (chars[i] !== "\n") chars[i] = " ";
  };
  const lines = lineStarts(chars);
  let fence: { char: string; length: number; start: number } | undefined;
  for (const [lineStart, lineEnd] of lines) {
    const line = chars.slice(lineStart, lineEnd).join("");
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === undefined) {
      if (open?.[1] !== undefined) {
        fence = { char: open[1][0] ?? "`", length: open[1].length, start: lineStart };
      }
      continue;
    }
    const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
    if (close?.[1] !== undefined && close[1][0] === fence.char && close[1].length >= fence.length) {
      blank(fence.start, lineEnd);
      fence = undefined;
    }
  }
  if (fence !== undefined) blank(fence.start, chars.length);
  maskSpans(chars, blank);
  return chars.join("");
}

function lineStarts(chars: readonly string[]): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (let i = 0; i <= chars.length; i++) {
    if (i === chars.length || chars[i] === "\n") {
      out.push([start, i]);
      start = i + 1;
    }
  }
  return out;
}

function maskSpans(chars: string[], blank: (from: number, to: number) => void): void {
  let i = 0;
  while (i < chars.length) {
    if (chars[i] !== "`") {
      i++;
      continue;
    }
    const open = runLength(chars, i);
    let j = i + open;
    let closedAt = -1;
    while (j < chars.length) {
      if (chars[j] === "`") {
        const run = runLength(chars, j);
        if (run === open) {
          closedAt = j + run;
          break;
        }
        j += run;
      } else j++;
    }
    if (closedAt === -1) {
      i += open;
      continue;
    }
    blank(i, closedAt);
    i = closedAt;
  }
}

function runLength(chars: readonly string[], from: number): number {
  let n = 0;
  while (chars[from + n] === "`") n++;
  return n;
}
