// The system prompt's XML blocks. Text from apps, executas and skills is author-supplied, so
// every piece goes through these helpers: once `<` and `>` are entities, no addendum can close
// its fence or open a forged one (A39, decision "fencing").

import { escapeXml } from "@anna-ai/skills";

export { escapeXml };

/** An attribute value: element-text escaping plus both quotes, newlines folded to spaces. */
export function escapeXmlAttr(value: string): string {
  return escapeXml(value).replace(/"/g, "&quot;").replace(/'/g, "&apos;").replace(/\s+/g, " ");
}

export function attrs(values: Record<string, string | undefined>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeXmlAttr(value)}"`)
    .join("");
}

/** `<tag attrs>escaped text</tag>`, on its own lines when the text spans several. */
export function element(
  tag: string,
  text: string,
  attributes: Record<string, string | undefined> = {},
): string {
  const body = escapeXml(text);
  const open = `<${tag}${attrs(attributes)}>`;
  return body.includes("\n") ? `${open}\n${body}\n</${tag}>` : `${open}${body}</${tag}>`;
}
