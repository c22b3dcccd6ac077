import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { syntheticJson } from "../../../src/services/offline/synthetic-json.js";
import { schemaIssues } from "./helpers.js";

type Schema = Record<string, unknown>;

// The kitchen-sink and py-studio schemas, then one schema per generator branch.
const SCHEMAS: Record<string, Schema> = {
  "summary (ts-kitchen-sink)": {
    type: "object",
    properties: {
      summary: { type: "string" },
      keywords: { type: "array", items: { type: "string" } },
      sentiment: { type: "string", enum: ["positive", "neutral", "negative"] },
    },
    required: ["summary", "keywords", "sentiment"],
    additionalProperties: false,
  },
  "extraction (py-studio)": {
    type: "object",
    properties: {
      title: { type: "string" },
      keywords: { type: "array", items: { type: "string" } },
    },
    required: ["title", "keywords"],
    additionalProperties: false,
  },
  "nested objects three deep": {
    type: "object",
    properties: {
      order: {
        type: "object",
        properties: {
          customer: {
            type: "object",
            properties: { name: { type: "string" }, vip: { type: "boolean" } },
            required: ["name", "vip"],
          },
          total: { type: "number", minimum: 0 },
        },
        required: ["customer", "total"],
      },
    },
    required: ["order"],
  },
  "array of objects with minItems, maxItems and uniqueItems": {
    type: "array",
    minItems: 3,
    maxItems: 5,
    uniqueItems: true,
    items: {
      type: "object",
      properties: {
        id: { type: "integer", minimum: 1 },
        label: { type: "string", minLength: 2, maxLength: 20 },
        kind: { enum: ["a", "b"] },
      },
      required: ["id", "label", "kind"],
      additionalProperties: false,
    },
  },
  "unique scalars": {
    type: "array",
    items: { type: "integer", minimum: 10, maximum: 20 },
    minItems: 4,
    uniqueItems: true,
  },
  "const and enum of mixed values": {
    type: "object",
    properties: {
      version: { const: 2 },
      mode: { enum: [null, "fast", 3] },
      flag: { const: "on" },
    },
    required: ["version", "mode", "flag"],
  },
  "numeric bounds": {
    type: "object",
    properties: {
      score: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
      rating: { type: "integer", minimum: 1, maximum: 5 },
      negative: { type: "integer", maximum: -10 },
      step: { type: "integer", multipleOf: 7, minimum: 20 },
      tenth: { type: "number", multipleOf: 0.1, minimum: 0.25, maximum: 0.95 },
    },
    required: ["score", "rating", "negative", "step", "tenth"],
  },
  "string formats and lengths": {
    type: "object",
    properties: {
      when: { type: "string", format: "date-time" },
      day: { type: "string", format: "date" },
      mail: { type: "string", format: "email" },
      link: { type: "string", format: "uri" },
      id: { type: "string", format: "uuid" },
      code: { type: "string", minLength: 12 },
      short: { type: "string", maxLength: 3 },
      slug: { type: "string", pattern: "^[a-z]+$" },
    },
    required: ["when", "day", "mail", "link", "id", "code", "short", "slug"],
  },
  "nullable union types": {
    type: "object",
    properties: {
      maybe: { type: ["string", "null"] },
      either: { anyOf: [{ type: "null" }, { type: "integer", minimum: 3 }] },
      one: { oneOf: [{ type: "boolean" }, { type: "string", maxLength: 0 }] },
    },
    required: ["maybe", "either", "one"],
  },
  "local $ref with $defs and a recursive tree": {
    type: "object",
    $defs: {
      node: {
        type: "object",
        properties: {
          name: { type: "string" },
          children: { type: "array", items: { $ref: "#/$defs/node" } },
        },
        required: ["name"],
      },
    },
    properties: { root: { $ref: "#/$defs/node" } },
    required: ["root"],
  },
  "allOf merge": {
    allOf: [
      { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      { properties: { b: { type: "integer", minimum: 100 } }, required: ["b"] },
    ],
  },
  "tuple with prefixItems and closed rest": {
    type: "array",
    prefixItems: [{ type: "string" }, { type: "integer" }, { type: "boolean" }],
    items: false,
  },
  "minProperties with typed additionalProperties": {
    type: "object",
    minProperties: 3,
    additionalProperties: { type: "integer", minimum: 7 },
  },
  "required keys without properties and a bare empty schema": {
    type: "object",
    required: ["anything"],
    properties: { free: {} },
  },
};

describe("syntheticJson", () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`makes a value that validates against: ${name}`, () => {
      const value = syntheticJson(schema);
      expect(schemaIssues(schema, value)).toEqual([]);
    });
  }

  it("gives the same bytes for the same schema, every time", () => {
    for (const schema of Object.values(SCHEMAS)) {
      expect(JSON.stringify(syntheticJson(structuredClone(schema)))).toBe(
        JSON.stringify(syntheticJson(schema)),
      );
    }
  });

  it("fills every declared property and honours minItems", () => {
    const value = syntheticJson(
      SCHEMAS["array of objects with minItems, maxItems and uniqueItems"],
    );
    expect(value).toHaveLength(3);
    expect(syntheticJson(SCHEMAS["summary (ts-kitchen-sink)"])).toEqual({
      summary: "mock summary",
      keywords: ["mock keywords 1"],
      sentiment: "positive",
    });
  });

  it("stops a self-referencing $ref that has to recurse", () => {
    const schema = {
      $defs: {
        list: {
          type: "object",
          properties: { next: { $ref: "#/$defs/list" } },
          required: ["next"],
        },
      },
      $ref: "#/$defs/list",
    };
    const value = syntheticJson(schema);
    expect(JSON.stringify(value).length).toBeLessThan(2000);
  });

  it("copies object consts and enum members instead of sharing them", () => {
    const schema = { const: { nested: [1, 2] } };
    const value = syntheticJson(schema) as { nested: number[] };
    expect(value).toEqual({ nested: [1, 2] });
    value.nested.push(3);
    expect(schema.const.nested).toEqual([1, 2]);
  });

  it("leaves optional members out deep down a recursive schema", () => {
    const tree = syntheticJson(SCHEMAS["local $ref with $defs and a recursive tree"]);
    let depth = 0;
    let node = (tree as { root: { children?: unknown[] } }).root;
    while (node.children !== undefined && node.children.length > 0) {
      node = node.children[0] as typeof node;
      depth += 1;
    }
    expect(depth).toBeGreaterThan(0);
    expect(depth).toBeLessThan(5);
  });

  it("treats __proto__ and constructor as ordinary property names", () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"integer"}},"required":["__proto__","constructor"],"additionalProperties":{"type":"boolean"}}',
    ) as Schema;
    const value = syntheticJson(schema);
    expect(JSON.stringify(value)).toBe('{"__proto__":0,"constructor":true}');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it("returns null for the false schema and a string for the true schema", () => {
    expect(syntheticJson(false)).toBeNull();
    expect(typeof syntheticJson(true)).toBe("string");
  });
});

/** Random schemas from the keywords the generator promises to honour. */
const scalarSchema = fc.oneof(
  fc.record(
    {
      type: fc.constant("string"),
      minLength: fc.nat(10),
      maxLength: fc.integer({ min: 10, max: 40 }),
    },
    { requiredKeys: ["type"] },
  ),
  fc.constantFrom<Schema>(
    { type: "string", format: "email" },
    { type: "string", format: "date-time" },
    { type: "string", format: "uuid" },
    { type: "boolean" },
    { type: "null" },
  ),
  fc
    .record(
      {
        type: fc.constantFrom("integer", "number"),
        minimum: fc.integer({ min: -50, max: 50 }),
        span: fc.nat(100),
      },
      { requiredKeys: ["type"] },
    )
    .map(({ span, ...s }): Schema =>
      s.minimum === undefined ? s : { ...s, maximum: s.minimum + (span ?? 0) },
    ),
  fc.record({ type: fc.constant("integer"), multipleOf: fc.integer({ min: 1, max: 9 }) }),
  fc.record({
    enum: fc.uniqueArray(fc.oneof(fc.string(), fc.integer()), { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ const: fc.oneof(fc.string(), fc.integer(), fc.boolean()) }),
);

const { schema: randomSchema } = fc.letrec<{ schema: Schema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalarSchema,
    fc
      .record({
        properties: fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), tie("schema"), { maxKeys: 4 }),
        closed: fc.boolean(),
        requireAll: fc.boolean(),
      })
      .map(({ properties, closed, requireAll }): Schema => ({
        type: "object",
        properties,
        ...(requireAll ? { required: Object.keys(properties) } : {}),
        ...(closed ? { additionalProperties: false } : {}),
      })),
    fc
      .record({ items: tie("schema"), minItems: fc.nat(3), extra: fc.nat(3) })
      .map(({ items, minItems, extra }): Schema => ({
        type: "array",
        items,
        minItems,
        maxItems: minItems + extra,
      })),
    fc
      .array(tie("schema"), { minLength: 1, maxLength: 3 })
      .map((branches): Schema => ({ anyOf: branches })),
  ),
}));

describe("syntheticJson over random schemas", () => {
  it("always makes a value that validates", () => {
    fc.assert(
      fc.property(randomSchema, (schema) => {
        expect(schemaIssues(schema, syntheticJson(schema))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
