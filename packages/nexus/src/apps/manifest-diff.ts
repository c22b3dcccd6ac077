// A structural diff of two JSON documents, for the reviewer's view of a candidate manifest
// against the live one: which paths were added, removed or changed, as JSON Pointers (RFC 6901).
// Objects are compared key by key. Arrays of plain values (permissions, origins, host_api
// methods) are compared as sets, so one permission inserted in the middle is one addition, not
// a cascade of changes; other arrays are compared position by position.

export interface JsonDiff {
  added: { path: string; value: unknown }[];
  removed: { path: string; value: unknown }[];
  changed: { path: string; from: unknown; to: unknown }[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isPlain = (v: unknown): boolean => v === null || typeof v !== "object";
const pointer = (base: string, key: string | number): string =>
  `${base}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;

export function jsonDiff(from: unknown, to: unknown): JsonDiff {
  const out: JsonDiff = { added: [], removed: [], changed: [] };
  walk(from, to, "", out);
  return out;
}

function walk(a: unknown, b: unknown, path: string, out: JsonDiff): void {
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const key of keys) {
      const p = pointer(path, key);
      if (!(key in b)) out.removed.push({ path: p, value: a[key] });
      else if (!(key in a)) out.added.push({ path: p, value: b[key] });
      else walk(a[key], b[key], p, out);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.every(isPlain) && b.every(isPlain)) return diffSets(a, b, path, out);
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const p = pointer(path, i);
      if (i >= b.length) out.removed.push({ path: p, value: a[i] });
      else if (i >= a.length) out.added.push({ path: p, value: b[i] });
      else walk(a[i], b[i], p, out);
    }
    return;
  }
  if (!Object.is(a, b) && JSON.stringify(a) !== JSON.stringify(b)) {
    out.changed.push({ path, from: a, to: b });
  }
}

/** Plain values as multisets: each unmatched one is removed (at its old index) or added (new). */
function diffSets(a: unknown[], b: unknown[], path: string, out: JsonDiff): void {
  const left = a.map((v) => JSON.stringify(v));
  const right = b.map((v) => JSON.stringify(v));
  const unmatched = [...right];
  left.forEach((v, i) => {
    const at = unmatched.indexOf(v);
    if (at === -1) out.removed.push({ path: pointer(path, i), value: a[i] });
    else unmatched[at] = "\u0000taken";
  });
  const remaining = [...left];
  right.forEach((v, i) => {
    const at = remaining.indexOf(v);
    if (at === -1) out.added.push({ path: pointer(path, i), value: b[i] });
    else remaining[at] = "\u0000taken";
  });
}
