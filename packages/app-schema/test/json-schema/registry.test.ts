import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { JSON_SCHEMA_ID_BASE, generateExecutaJsonSchemas } from "../../src/json-schema/registry.js";

const CHECKED_IN = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "json-schema",
  "executa",
);
const REGENERATE = "run npm run -w @anna-ai/app-schema gen:json-schema";

describe("checked-in JSON Schemas", () => {
  const generated = generateExecutaJsonSchemas();

  it("match the zod schemas", () => {
    const files = readdirSync(CHECKED_IN)
      .filter((file) => file.endsWith(".json"))
      .sort();
    expect(files, REGENERATE).toEqual(Object.keys(generated).sort());
    for (const file of files) {
      const onDisk: unknown = JSON.parse(readFileSync(join(CHECKED_IN, file), "utf8"));
      expect(onDisk, `${file} is out of date: ${REGENERATE}`).toEqual(generated[file]);
    }
  });

  it("carry a versioned $id named after the file, and a title", () => {
    for (const [file, document] of Object.entries(generated)) {
      expect(document["$id"]).toBe(`${JSON_SCHEMA_ID_BASE}${file}`);
      expect(JSON_SCHEMA_ID_BASE).toMatch(/\/v\d+\/$/);
      expect(document["$schema"]).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(typeof document["title"]).toBe("string");
    }
  });

  it("describe the liberal wire: the manifest keeps unknown keys and does not require a name", () => {
    const manifest = generated["executa-manifest.json"] as {
      required?: string[];
      additionalProperties?: unknown;
    };
    expect(manifest.required).toEqual(["tools"]);
    expect(manifest.additionalProperties).toEqual({});
  });
});
