import {
  RESPONSE_SCHEMA_MAX_BYTES,
  RESPONSE_SCHEMA_MAX_DEPTH,
  RESPONSE_SCHEMA_MAX_NODES,
} from "@anna-ai/app-schema";
import type { ResponseFormat } from "@anna-ai/app-schema";
import { SAMPLING_ERRORS } from "@anna-ai/app-schema/errors";
import { describe, expect, it } from "vitest";
import {
  applyResponseFormat,
  checkResponseFormat,
  measureSchema,
  responseFormatMeta,
} from "../../../src/services/offline/response-format.js";
import { expectRpcError } from "./helpers.js";

const INVALID = SAMPLING_ERRORS.INVALID_REQUEST;

function jsonSchema(schema: unknown, name = "shape"): ResponseFormat {
  return { type: "json_schema", json_schema: { name, schema } } as ResponseFormat;
}

/** `{"a":{"a":…{"type":"string"}}}` with `levels` objects. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 1; i < levels; i++) schema = { a: schema };
  return schema;
}

/** One object holding `leaves` string leaves: 1 + leaves nodes. */
function wide(leaves: number): Record<string, unknown> {
  return Object.fromEntries(Array.from({ length: leaves }, (_, i) => [`k${i}`, "x"]));
}

const check = (format: ResponseFormat | undefined) =>
  Promise.resolve().then(() => checkResponseFormat(format));

describe("measureSchema", () => {
  it("counts objects, arrays and leaves, and nesting from the root object", () => {
    expect(measureSchema({ type: "object", required: ["a", "b"] })).toEqual({
      bytes: JSON.stringify({ type: "object", required: ["a", "b"] }).length,
      depth: 2,
      nodes: 5,
    });
    expect(measureSchema(nested(3))).toMatchObject({ depth: 3, nodes: 4 });
  });

  it("measures bytes as UTF-8 of the compact form", () => {
    expect(measureSchema({ d: "é" }).bytes).toBe(Buffer.byteLength('{"d":"é"}'));
  });
});

describe("checkResponseFormat", () => {
  it("accepts no format, text, json_object and a schema at every limit", async () => {
    await check(undefined);
    await check({ type: "text" });
    await check({ type: "json_object" });
    await check(jsonSchema(nested(RESPONSE_SCHEMA_MAX_DEPTH)));
    await check(jsonSchema(wide(RESPONSE_SCHEMA_MAX_NODES - 1)));
    await check(jsonSchema({ type: "string" }, "a".repeat(64)));
    const padding = RESPONSE_SCHEMA_MAX_BYTES - JSON.stringify({ d: "" }).length;
    await check(jsonSchema({ d: "x".repeat(padding) }));
  });

  it("refuses a schema one byte over 32 KB with -32004", async () => {
    const padding = RESPONSE_SCHEMA_MAX_BYTES - JSON.stringify({ d: "" }).length + 1;
    const error = await expectRpcError(
      check(jsonSchema({ d: "x".repeat(padding) })),
      INVALID.code,
      INVALID.errorCode,
      /32 KB/,
    );
    expect(error.data).toMatchObject({ limit: "schema_bytes", max: RESPONSE_SCHEMA_MAX_BYTES });
  });

  it("refuses nesting deeper than 8 with -32004", async () => {
    const error = await expectRpcError(
      check(jsonSchema(nested(RESPONSE_SCHEMA_MAX_DEPTH + 1))),
      INVALID.code,
      INVALID.errorCode,
    );
    expect(error.data).toMatchObject({ limit: "schema_depth" });
  });

  it("refuses more than 512 nodes with -32004", async () => {
    const error = await expectRpcError(
      check(jsonSchema(wide(RESPONSE_SCHEMA_MAX_NODES))),
      INVALID.code,
      INVALID.errorCode,
    );
    expect(error.data).toMatchObject({ limit: "schema_nodes" });
  });

  it("refuses an unknown type, a bad name or a missing schema with -32004", async () => {
    for (const name of ["", "a".repeat(65), "has space", "dot.ted"]) {
      await expectRpcError(check(jsonSchema({}, name)), INVALID.code, INVALID.errorCode, /name/);
    }
    await expectRpcError(check(jsonSchema([])), INVALID.code, INVALID.errorCode, /schema/);
    await expectRpcError(
      check({ type: "xml" } as unknown as ResponseFormat),
      INVALID.code,
      INVALID.errorCode,
      /responseFormat.type/,
    );
    await expectRpcError(
      check({ type: "json_schema" } as ResponseFormat),
      INVALID.code,
      INVALID.errorCode,
    );
  });
});

describe("applyResponseFormat", () => {
  const supported = { name: "mock-default", supportsJsonSchema: true };
  const unsupported = { name: "mock-default", supportsJsonSchema: false };
  const schema = jsonSchema({ type: "object" });

  it("never gates json_object", () => {
    expect(applyResponseFormat({ type: "json_object" }, "error", unsupported)).toEqual({
      requested: "json_object",
      applied: "json_object",
      downgraded: false,
    });
  });

  it("applies json_schema when the model supports it", () => {
    expect(applyResponseFormat(schema, "error", supported)).toMatchObject({
      requested: "json_schema",
      applied: "json_schema",
      downgraded: false,
    });
  });

  it("follows onUnsupported when the model lacks json_schema", async () => {
    expect(applyResponseFormat(schema, "json_object", unsupported)).toMatchObject({
      applied: "json_object",
      downgraded: true,
    });
    expect(applyResponseFormat(schema, "text", unsupported)).toMatchObject({
      applied: null,
      downgraded: true,
    });
    const entry = SAMPLING_ERRORS.UNSUPPORTED_RESPONSE_FORMAT;
    const error = await expectRpcError(
      Promise.resolve().then(() => applyResponseFormat(schema, "error", unsupported)),
      entry.code,
      entry.errorCode,
    );
    expect(error.data).toEqual({
      requested: "json_schema",
      modelName: "mock-default",
      errorCode: entry.errorCode,
    });
  });

  it("reports structuredValid from parsing the text", () => {
    const applied = {
      requested: "json_object" as const,
      applied: "json_object" as const,
      downgraded: false,
    };
    expect(responseFormatMeta(applied, '{"a":1}').structuredValid).toBe(true);
    expect(responseFormatMeta(applied, '{"a":').structuredValid).toBe(false);
  });
});
