// A JSON value that validates against a JSON Schema, for the synthetic structured answers of the
// offline sampling service. A pure function of the schema (and the label): no randomness, so the
// same request always yields the same bytes.
//
// Honoured: `type` (also lists, the first non-null wins), `const`, `enum`, `properties` (all of
// them in schema order, only the required ones deep down), `required`, `additionalProperties` and `minProperties` (filled with
// `extra_<n>` keys), `items` / `prefixItems` / tuple `items`, `minItems` / `maxItems` (one item
// when nothing asks for more), `uniqueItems` for generated scalars, `minLength` / `maxLength`,
// common `format`s, `minimum` / `maximum` / exclusive bounds (both drafts) / `multipleOf`, local
// `$ref` (`#/$defs/…`, `#/definitions/…`, `#`), `allOf` (merged), `anyOf` / `oneOf` (the first
// branch), boolean schemas. Fallback for everything else (`pattern` beyond a few candidate
// strings, `not`, `if`/`then`/`else`, `contains`, `patternProperties`, `dependent*`): the keyword
// is ignored and the value may not validate; the caller reports `structuredValid` from parsing
// alone, as production does (D-host-83, D-host-82).

type Schema = Record<string, unknown>;

/** Recursion guard for self-referencing `$ref`s: past it, the smallest valid-looking value. */
const MAX_GENERATION_DEPTH = 24;
/**
 * Deeper than this, optional properties and optional array items are left out, so recursive
 * schemas (trees, linked lists) end without hitting the guard.
 */
const OPTIONAL_MAX_DEPTH = 6;

/** Tried in order when a string `pattern` rejects the default value. */
const PATTERN_CANDIDATES: readonly string[] = [
  "mock",
  "a",
  "A",
  "0",
  "mock-1",
  "mock_1",
  "Mock",
  "MOCK",
  "abc123",
  "2026-01-01",
  "mock@example.com",
  "https://example.com/mock",
  "",
];

const FORMAT_VALUES: Readonly<Record<string, string>> = {
  "date-time": "2026-01-01T00:00:00Z",
  date: "2026-01-01",
  time: "00:00:00Z",
  duration: "P1D",
  email: "mock@example.com",
  "idn-email": "mock@example.com",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  uri: "https://example.com/mock",
  "uri-reference": "https://example.com/mock",
  iri: "https://example.com/mock",
  "iri-reference": "https://example.com/mock",
  url: "https://example.com/mock",
  uuid: "00000000-0000-4000-8000-000000000000",
  "json-pointer": "/mock",
  regex: "^mock$",
};

interface Walk {
  root: unknown;
  depth: number;
  /** What the value stands for: a property name or `item <n>`; used in generated strings. */
  label: string;
  /** Position among siblings, so generated array items differ (uniqueItems). */
  index: number;
}

/** A value that satisfies `schema`, labelled after `label` where strings are made up. */
export function syntheticJson(schema: unknown, label = "value"): unknown {
  return generate(schema, { root: schema, depth: 0, label, index: 0 });
}

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function generate(schema: unknown, walk: Walk): unknown {
  if (schema === false) return null;
  if (!isSchema(schema)) return stringValue({}, walk);
  const s = flatten(schema, walk);
  if (walk.depth > MAX_GENERATION_DEPTH) return smallest(s);
  if ("const" in s) return structuredClone(s["const"]);
  if (Array.isArray(s["enum"]) && s["enum"].length > 0) {
    const options = s["enum"] as unknown[];
    return structuredClone(options[walk.index % options.length]);
  }
  switch (typeOf(s)) {
    case "object":
      return objectValue(s, walk);
    case "array":
      return arrayValue(s, walk);
    case "integer":
      return numberValue(s, walk, true);
    case "number":
      return numberValue(s, walk, false);
    case "boolean":
      return walk.index % 2 === 0;
    case "null":
      return null;
    default:
      return stringValue(s, walk);
  }
}

/** Resolves `$ref` and merges `allOf` and the first `anyOf`/`oneOf` branch into one schema. */
function flatten(schema: Schema, walk: Walk): Schema {
  let s = schema;
  for (let hops = 0; typeof s["$ref"] === "string" && hops < MAX_GENERATION_DEPTH; hops++) {
    const { $ref, ...rest } = s;
    const target = resolveRef(walk.root, $ref as string);
    s = isSchema(target) ? merge(target, rest) : rest;
  }
  if (Array.isArray(s["allOf"])) {
    const { allOf, ...rest } = s;
    s = (allOf as unknown[]).reduce<Schema>(
      (acc, part) => (isSchema(part) ? merge(acc, flatten(part, walk)) : acc),
      rest,
    );
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = s[key];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const { [key]: _, ...rest } = s;
    // Prefer a branch that is not just `null`, so optional fields still carry a value.
    const branch =
      branches.find((b) => isSchema(b) && b["type"] !== "null") ?? (branches[0] as unknown);
    s = isSchema(branch) ? merge(rest, flatten(branch, walk)) : rest;
  }
  return s;
}

/** Shallow merge where `properties` merge and `required` lists join. */
function merge(base: Schema, extra: Schema): Schema {
  const out: Schema = { ...base, ...extra };
  if (isSchema(base["properties"]) && isSchema(extra["properties"])) {
    out["properties"] = { ...base["properties"], ...extra["properties"] };
  }
  if (Array.isArray(base["required"]) && Array.isArray(extra["required"])) {
    out["required"] = [...new Set([...base["required"], ...extra["required"]])];
  }
  return out;
}

function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let current = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isSchema(current) && !Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function typeOf(s: Schema): string {
  const type = s["type"];
  if (typeof type === "string") return type;
  if (Array.isArray(type)) {
    const named = type.filter((t): t is string => typeof t === "string");
    return named.find((t) => t !== "null") ?? named[0] ?? "string";
  }
  if ("properties" in s || "required" in s || "additionalProperties" in s) return "object";
  if ("items" in s || "prefixItems" in s || "minItems" in s || "maxItems" in s) return "array";
  if ("minimum" in s || "maximum" in s || "multipleOf" in s) return "number";
  if ("exclusiveMinimum" in s || "exclusiveMaximum" in s) return "number";
  return "string";
}

/** For a `$ref` cycle past the guard: the least a validator will accept for the type. */
function smallest(s: Schema): unknown {
  switch (typeOf(s)) {
    case "object":
      return {};
    case "array":
      return [];
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return "";
  }
}

function objectValue(s: Schema, walk: Walk): Record<string, unknown> {
  const properties = isSchema(s["properties"]) ? s["properties"] : {};
  const required = Array.isArray(s["required"])
    ? s["required"].filter((k): k is string => typeof k === "string")
    : [];
  const max = typeof s["maxProperties"] === "number" ? s["maxProperties"] : Infinity;
  // Required keys first when maxProperties forces a choice; otherwise schema order.
  const optional = walk.depth < OPTIONAL_MAX_DEPTH ? Object.keys(properties) : [];
  const keys = [...new Set([...optional, ...required])];
  const chosen =
    keys.length <= max
      ? keys
      : [...required, ...keys.filter((k) => !required.includes(k))].slice(0, max);
  const out: Record<string, unknown> = {};
  const child = (key: string, schema: unknown, index: number) => {
    // defineProperty: a `__proto__` property must become a key, not the object's prototype.
    Object.defineProperty(out, key, {
      value: generate(schema, { ...walk, depth: walk.depth + 1, label: key, index }),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  };
  const extraSchema = s["additionalProperties"] ?? true;
  for (const key of keys) {
    if (!chosen.includes(key)) continue;
    // The parent's index flows down so the objects of one array differ (uniqueItems).
    child(key, Object.hasOwn(properties, key) ? properties[key] : extraSchema, walk.index);
  }
  const min = typeof s["minProperties"] === "number" ? s["minProperties"] : 0;
  for (let n = 1; Object.keys(out).length < min && extraSchema !== false; n++) {
    if (!Object.hasOwn(out, `extra_${n}`)) child(`extra_${n}`, extraSchema, walk.index);
  }
  return out;
}

function arrayValue(s: Schema, walk: Walk): unknown[] {
  // 2020-12 `prefixItems` + `items`; draft-07 tuple `items` + `additionalItems`.
  const prefix = Array.isArray(s["prefixItems"])
    ? (s["prefixItems"] as unknown[])
    : Array.isArray(s["items"])
      ? (s["items"] as unknown[])
      : [];
  const rest = Array.isArray(s["items"]) ? s["additionalItems"] : s["items"];
  const minItems = typeof s["minItems"] === "number" ? s["minItems"] : 0;
  const maxItems = typeof s["maxItems"] === "number" ? s["maxItems"] : Infinity;
  let count = Math.max(minItems, prefix.length, walk.depth < OPTIONAL_MAX_DEPTH ? 1 : 0);
  if (rest === false) count = Math.min(count, prefix.length);
  count = Math.min(count, maxItems);
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const itemSchema = i < prefix.length ? prefix[i] : (rest ?? true);
    out.push(
      generate(itemSchema, {
        ...walk,
        depth: walk.depth + 1,
        label: `${walk.label} ${i + 1}`,
        index: i,
      }),
    );
  }
  return out;
}

function stringValue(s: Schema, walk: Walk): string {
  const format = typeof s["format"] === "string" ? FORMAT_VALUES[s["format"]] : undefined;
  let value = format ?? `mock ${walk.label}`;
  if (format === undefined && walk.index > 0 && !value.endsWith(String(walk.index + 1))) {
    value = `${value} ${walk.index + 1}`;
  }
  const min = typeof s["minLength"] === "number" ? s["minLength"] : 0;
  const max = typeof s["maxLength"] === "number" ? s["maxLength"] : Infinity;
  value = fitLength(value, min, max);
  if (typeof s["pattern"] === "string") {
    let re: RegExp | undefined;
    try {
      re = new RegExp(s["pattern"], "u");
    } catch {
      re = undefined;
    }
    if (re !== undefined && !re.test(value)) {
      const hit = PATTERN_CANDIDATES.map((c) => fitLength(c, min, max)).find((c) => re.test(c));
      if (hit !== undefined) value = hit;
    }
  }
  return value;
}

function fitLength(value: string, min: number, max: number): string {
  let chars = Array.from(value);
  if (chars.length > max) chars = chars.slice(0, Math.max(0, Math.floor(max)));
  while (chars.length < min) chars.push("x");
  return chars.join("");
}

interface Bound {
  value: number;
  exclusive: boolean;
}

function lowerBound(s: Schema): Bound | undefined {
  // Draft 6+: exclusiveMinimum is a number; draft 4: a boolean beside minimum.
  const min = typeof s["minimum"] === "number" ? s["minimum"] : undefined;
  const exMin = s["exclusiveMinimum"];
  if (typeof exMin === "number" && (min === undefined || exMin >= min)) {
    return { value: exMin, exclusive: true };
  }
  if (min !== undefined) return { value: min, exclusive: exMin === true };
  return undefined;
}

function upperBound(s: Schema): Bound | undefined {
  const max = typeof s["maximum"] === "number" ? s["maximum"] : undefined;
  const exMax = s["exclusiveMaximum"];
  if (typeof exMax === "number" && (max === undefined || exMax <= max)) {
    return { value: exMax, exclusive: true };
  }
  if (max !== undefined) return { value: max, exclusive: exMax === true };
  return undefined;
}

function numberValue(s: Schema, walk: Walk, integer: boolean): number {
  const lo = lowerBound(s);
  const hi = upperBound(s);
  const step = typeof s["multipleOf"] === "number" && s["multipleOf"] > 0 ? s["multipleOf"] : 0;
  if (integer) {
    const min =
      lo === undefined ? undefined : lo.exclusive ? Math.floor(lo.value) + 1 : Math.ceil(lo.value);
    const max =
      hi === undefined ? undefined : hi.exclusive ? Math.ceil(hi.value) - 1 : Math.floor(hi.value);
    let value = (min ?? 0) + walk.index;
    if (max !== undefined && value > max) value = Math.max(min ?? max, max - walk.index);
    if (step > 0 && Number.isInteger(step)) {
      const up = Math.ceil(value / step) * step;
      value = max !== undefined && up > max ? Math.floor(max / step) * step : up;
    }
    return value;
  }
  let value: number;
  if (lo !== undefined && hi !== undefined) {
    value = lo.value + (hi.value - lo.value) / 2;
  } else if (lo !== undefined) {
    value = lo.value + (lo.exclusive ? 1 : 0) + walk.index;
  } else if (hi !== undefined) {
    value = hi.value - (hi.exclusive ? 1 : 0) - walk.index;
  } else {
    value = walk.index;
  }
  if (step > 0) value = nearestMultiple(value, step, lo, hi);
  return value;
}

/**
 * A multiple of `step` inside the bounds, preferring 0 and whole numbers: validators divide in
 * floating point, and `k * 0.1` is rarely an exact multiple for them.
 */
function nearestMultiple(
  value: number,
  step: number,
  lo: Bound | undefined,
  hi: Bound | undefined,
): number {
  const inside = (x: number) =>
    (lo === undefined || (lo.exclusive ? x > lo.value : x >= lo.value)) &&
    (hi === undefined || (hi.exclusive ? x < hi.value : x <= hi.value));
  if (inside(0)) return 0;
  const k = Math.ceil(value / step);
  for (const candidate of [k, k + 1, k - 1, Math.floor(value / step)]) {
    const x = Number((candidate * step).toPrecision(15));
    if (inside(x)) return x;
  }
  return value;
}
