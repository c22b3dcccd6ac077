// Main-content extraction for `web.fetch` (R154: "Markdown or plain text, navigation/ads
// stripped"). A small, dependency-free stand-in for trafilatura: drop the chrome (script, style,
// nav, header, footer, aside, forms), prefer <main>/<article> when the page has one, and turn the
// rest into Markdown (headings, lists, links) or plain text.
export type WebFetchFormat = "markdown" | "text";
export const WEB_FETCH_FORMATS: readonly WebFetchFormat[] = ["markdown", "text"];

/** Media types read as text as they are; HTML is extracted; anything else is `PARSE_FAILED`. */
const TEXT_TYPES = [
  /^text\/plain$/,
  /^text\/markdown$/,
  /^text\/csv$/,
  /^application\/(.+\+)?json$/,
  /^application\/(.+\+)?xml$/,
  /^text\/xml$/,
];

export function isHtml(mediaType: string): boolean {
  return mediaType === "text/html" || mediaType === "application/xhtml+xml" || mediaType === "";
}

export function isPlainText(mediaType: string): boolean {
  return TEXT_TYPES.some((re) => re.test(mediaType));
}

/**
 * The charset an HTML page declares in its first 1 024 bytes (`<meta charset>` or the
 * `http-equiv` form), for pages whose Content-Type has none — as browsers read them. A page that
 * could carry this ASCII tag is not UTF-16, so that declaration means UTF-8 (WHATWG HTML).
 */
export function htmlMetaCharset(body: Uint8Array): string | undefined {
  const head = Buffer.from(body.subarray(0, 1024)).toString("latin1");
  const declared = /<meta\b[^>]*?charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1]?.toLowerCase();
  return declared?.startsWith("utf-16") === true ? "utf-8" : declared;
}

export interface Extracted {
  title: string | undefined;
  content: string;
}

const DROPPED = [
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "nav",
  "header",
  "footer",
  "aside",
  "form",
  "iframe",
  "button",
  "select",
];

const ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  copy: "©",
  reg: "®",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  middot: "·",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X"))
      return codePoint(parseInt(name.slice(2), 16), whole);
    if (name.startsWith("#")) return codePoint(parseInt(name.slice(1), 10), whole);
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function codePoint(value: number, fallback: string): string {
  return Number.isInteger(value) && value > 0 && value <= 0x10ffff
    ? String.fromCodePoint(value)
    : fallback;
}

export function extractHtml(page: string, format: WebFetchFormat, base: string): Extracted {
  // Every pattern below is linear only on markup where each `<` ends its tag before the next `<`
  // and each element pattern's opener has a closer after it; `escapeStrayLt` and `dropUnclosed`
  // make it so. Without them a hostile page (`<title>` × 100 000) kept the event loop busy for
  // minutes: each unclosed opener scanned to the end of the page again. Entities stay encoded
  // until the one decode at the end, so decoded text never turns back into markup.
  const html = escapeStrayLt(dropUnclosedComments(page).replace(/<!--[\s\S]*?-->/g, ""));
  const titleMatch = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(dropUnclosed(html, "title"));
  const title =
    titleMatch?.[1] === undefined ? undefined : collapse(decodeEntities(stripTags(titleMatch[1])));
  // A <title> outside <head> (head-less pages) is metadata too, not content.
  let body = dropUnclosed(html, "head").replace(/<head\b[\s\S]*?<\/head\s*>/i, "");
  body = dropUnclosed(body, "title").replace(/<title\b[^>]*>[\s\S]*?<\/title\s*>/gi, "");
  for (const tag of DROPPED) {
    body = dropUnclosed(body, tag);
    body = body.replace(new RegExp(`<${tag}\\b[\\s\\S]*?<\\/${tag}\\s*>`, "gi"), " ");
    body = body.replace(new RegExp(`<${tag}\\b[^>]*\\/?>`, "gi"), " ");
  }
  body = dropUnclosed(dropUnclosed(body, "main"), "article");
  const main = /<(main|article)\b[^>]*>([\s\S]*?)<\/\1\s*>/i.exec(body);
  if (main?.[2] !== undefined) body = main[2];
  const md = format === "markdown";
  for (let level = 1; level <= 6; level++) body = dropUnclosed(body, `h${level}`);
  body = body.replace(
    /<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1\s*>/gi,
    (_m, level: string, inner: string) =>
      `\n\n${md ? "#".repeat(Number(level)) + " " : ""}${inline(inner)}\n\n`,
  );
  body = dropUnclosed(body, "a")
    .replace(
      /<a\b[^>]*?href\s*=\s*(?:"([^">]*)"|'([^'>]*)'|([^\s>]+))[^>]*>([\s\S]*?)<\/a\s*>/gi,
      (_m, dq?: string, sq?: string, bare?: string, inner = "") => {
        const text = inline(inner);
        const href = absolute(decodeEntities(dq ?? sq ?? bare ?? ""), base);
        // Re-encoded: the whole body is decoded once at the end.
        return md && href !== undefined && text !== ""
          ? `[${text}](${href.replace(/&/g, "&amp;")})`
          : text;
      },
    )
    .replace(/<li\b[^>]*>/gi, md ? "\n- " : "\n")
    .replace(/<(br|hr)\b[^>]*\/?>/gi, "\n")
    .replace(
      /<\/?(p|div|section|ul|ol|table|tr|blockquote|pre|dl|dt|dd|figure|figcaption)\b[^>]*>/gi,
      "\n\n",
    )
    .replace(/<\/?(strong|b)\b[^>]*>/gi, md ? "**" : "")
    .replace(/<\/?(em|i)\b[^>]*>/gi, md ? "_" : "");
  const text = decodeEntities(stripTags(body));
  return { title: title === "" ? undefined : title, content: tidy(text) };
}

/** A `<` with no `>` before the next `<` opens no tag: it is text, written `&lt;`. */
function escapeStrayLt(html: string): string {
  return html
    .split("<")
    .map((part, i) => (i === 0 ? part : (part.includes(">") ? "<" : "&lt;") + part))
    .join("");
}

/** Removes the `<name …>` openers after the last `</name>`: they have nothing to close them. */
function dropUnclosed(html: string, name: string): string {
  let end = 0;
  for (const m of html.matchAll(new RegExp(`<\\/${name}\\s*>`, "gi"))) end = m.index + m[0].length;
  const tail = html.slice(end).replace(new RegExp(`<${name}\\b[^>]*>`, "gi"), "");
  return html.slice(0, end) + tail;
}

/** The same for comments: a `<!--` after the last `-->` comments out nothing. */
function dropUnclosedComments(html: string): string {
  const last = html.lastIndexOf("-->");
  const end = last === -1 ? 0 : last + 3;
  return html.slice(0, end) + html.slice(end).replace(/<!--/g, "");
}

/** Inline text for the body: tags out, spaces collapsed, entities left for the final decode. */
function inline(html: string): string {
  return collapse(stripTags(html));
}

function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, "");
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Spaces collapsed inside lines, at most one blank line between blocks. */
function tidy(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function absolute(href: string, base: string): string | undefined {
  if (href === "" || href.startsWith("#") || /^javascript:/i.test(href)) return undefined;
  try {
    return new URL(href, base).href;
  } catch {
    return undefined;
  }
}
