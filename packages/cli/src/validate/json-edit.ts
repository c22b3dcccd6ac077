// Minimal text edits on a parsed JSON document for `--fix`: the rest of the file — formatting,
// key order, a BOM — stays exactly as the author wrote it. Each edit returns the new text; the
// caller re-parses before the next one, so offsets never go stale.
import { escapePointerToken, type JsonDocument } from "./json-document.js";

function childSpans(doc: JsonDocument, pointer: string, value: unknown) {
  const keys = Array.isArray(value)
    ? value.map((_, i) => String(i))
    : Object.keys(value as Record<string, unknown>);
  return keys
    .map((key) => doc.span(`${pointer}/${escapePointerToken(key)}`))
    .filter((span) => span !== undefined)
    .sort((a, b) => a.start - b.start);
}

function valueAt(doc: JsonDocument, pointer: string): unknown {
  let current: unknown = doc.value;
  if (pointer === "") return current;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof current !== "object" || current === null) return undefined;
    current = Object.hasOwn(current, token)
      ? (current as Record<string, unknown>)[token]
      : undefined;
  }
  return current;
}

function withBom(doc: JsonDocument, text: string): string {
  return doc.hadBom ? `\uFEFF${text}` : text;
}

/** The separator between two existing siblings, or a default that matches the layout. */
function separator(doc: JsonDocument, pointer: string, value: unknown): string {
  const spans = childSpans(doc, pointer, value);
  const container = doc.span(pointer);
  const [first, second] = spans;
  if (first && second) return doc.text.slice(first.end, second.keyStart ?? second.start);
  if (first && container) {
    const lead = doc.text.slice(container.start + 1, first.keyStart ?? first.start);
    return lead.includes("\n") ? `,${lead}` : ", ";
  }
  return ", ";
}

/** Appends JSON-encoded values to the array at `pointer`. */
export function appendToArray(
  doc: JsonDocument,
  pointer: string,
  items: readonly unknown[],
): string {
  const value = valueAt(doc, pointer);
  const span = doc.span(pointer);
  if (!Array.isArray(value) || span === undefined) {
    throw new Error(`no array at ${pointer || "/"}`);
  }
  const encoded = items.map((item) => JSON.stringify(item));
  const spans = childSpans(doc, pointer, value);
  const last = spans[spans.length - 1];
  let insertAt: number;
  let insert: string;
  if (last === undefined) {
    insertAt = span.start + 1;
    insert = encoded.join(", ");
  } else {
    const sep = separator(doc, pointer, value);
    insertAt = last.end;
    insert = encoded.map((item) => sep + item).join("");
  }
  return withBom(doc, doc.text.slice(0, insertAt) + insert + doc.text.slice(insertAt));
}

/** Adds `"key": <value>` as the last member of the object at `pointer`. */
export function addMember(
  doc: JsonDocument,
  pointer: string,
  key: string,
  member: unknown,
): string {
  const value = valueAt(doc, pointer);
  const span = doc.span(pointer);
  if (typeof value !== "object" || value === null || Array.isArray(value) || span === undefined) {
    throw new Error(`no object at ${pointer || "/"}`);
  }
  const encoded = `${JSON.stringify(key)}: ${JSON.stringify(member)}`;
  const spans = childSpans(doc, pointer, value);
  const last = spans[spans.length - 1];
  if (last === undefined) {
    const at = span.start + 1;
    return withBom(doc, doc.text.slice(0, at) + encoded + doc.text.slice(at));
  }
  const sep = separator(doc, pointer, value);
  return withBom(doc, doc.text.slice(0, last.end) + sep + encoded + doc.text.slice(last.end));
}

/** Replaces the value at `pointer` with a JSON-encoded `replacement`. */
export function replaceValue(doc: JsonDocument, pointer: string, replacement: unknown): string {
  const span = doc.span(pointer);
  if (span === undefined) throw new Error(`no value at ${pointer || "/"}`);
  return withBom(
    doc,
    doc.text.slice(0, span.start) + JSON.stringify(replacement) + doc.text.slice(span.end),
  );
}

export { valueAt as jsonValueAt };
