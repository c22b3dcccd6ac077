import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { APP_JSON_SCHEMA_ID_BASE, generateAppJsonSchemas } from "../../src/app/json-schemas.js";

const CHECKED_IN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "json-schema", "app");
const REGENERATE = "run npm run -w @anna-ai/app-schema gen:json-schema";

describe("checked-in app JSON Schemas", () => {
  const generated = generateAppJsonSchemas();

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
    expect(APP_JSON_SCHEMA_ID_BASE).toMatch(/\/app\/v\d+\/$/);
    for (const [file, document] of Object.entries(generated)) {
      expect(document["$id"]).toBe(`${APP_JSON_SCHEMA_ID_BASE}${file}`);
      expect(document["$schema"]).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(typeof document["title"]).toBe("string");
    }
  });

  it("describe the manifest as extra=forbid with the allow-lists and limits", () => {
    const manifest = generated["manifest.json"] as {
      additionalProperties?: unknown;
      properties: Record<
        string,
        { items?: { enum?: unknown[] }; anyOf?: { maxLength?: number }[] }
      >;
    };
    expect(manifest.additionalProperties).toBe(false);
    expect(manifest.properties["permissions"]?.items?.enum).toContain("storage.write");
    expect(manifest.properties["host_capabilities"]?.items?.enum).toContain("aps.scope.admin");
    expect(manifest.properties["system_prompt_addendum"]?.anyOf?.[0]?.maxLength).toBe(4000);
    expect(manifest.properties["user_message_prefix_template"]?.anyOf?.[0]?.maxLength).toBe(500);
  });

  it("keep executa.json open to extra keys", () => {
    const executa = generated["executa-json.json"] as { additionalProperties?: unknown };
    expect(executa.additionalProperties).toEqual({});
  });
});
