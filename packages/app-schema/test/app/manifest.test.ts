import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stripDevBlock } from "../../src/app/dev-block.js";
import { normalizeExecutaRef } from "../../src/app/executa-ref.js";
import { errorsOf, warningsOf } from "../../src/app/issues.js";
import { AppManifestSchema, countUserMessagePlaceholders } from "../../src/app/manifest.js";
import { generateAppJsonSchemas } from "../../src/app/json-schemas.js";
import { validateAppManifest } from "../../src/app/validate-manifest.js";

const UI = {
  bundle: { entry: "index.html" },
  views: [{ name: "main", title: "Main", default: true }],
};

describe("validateAppManifest", () => {
  it("applies the defaults: optional lists empty, bundle format static-spa", () => {
    const result = validateAppManifest({ schema: 2, ui: UI });
    expect(result.ok).toBe(true);
    expect(result.value?.required_executas).toEqual([]);
    expect(result.value?.optional_executas).toEqual([]);
    expect(result.value?.permissions).toEqual([]);
    expect(result.value?.ui?.bundle.format).toBe("static-spa");
  });

  it("counts characters as code points: 4000 emoji fit the addendum, 4001 do not", () => {
    const fits = validateAppManifest({
      schema: 1,
      required_executas: [{ tool_id: "t" }],
      system_prompt_addendum: "📈".repeat(4000),
    });
    expect(fits.ok).toBe(true);
    const over = validateAppManifest({
      schema: 1,
      required_executas: [{ tool_id: "t" }],
      system_prompt_addendum: "📈".repeat(4001),
    });
    expect(errorsOf(over.issues).map((i) => [i.pointer, i.message])).toEqual([
      ["/system_prompt_addendum", "must have at most 4000 characters (has 4001)"],
    ]);
  });

  it("reports every structural error at once, and the cross-field rules only once the structure holds", () => {
    const result = validateAppManifest({
      schema: 1,
      required_executas: [],
      permissions: ["nope"],
      tags: [1],
    });
    expect(result.issues.map((i) => i.pointer)).toEqual(["/permissions/0", "/tags/0"]);
  });

  it("resolves host_api.tools against the declared ids, ignoring bundled handles it cannot see", () => {
    const result = validateAppManifest({
      schema: 2,
      required_executas: [{ tool_id: "tool-a" }],
      optional_executas: [{ tool_id: "tool-b" }],
      permissions: ["tools.invoke"],
      ui: {
        ...UI,
        host_api: {
          tools: [
            "required:tool-a",
            "optional:tool-b",
            "tool-b",
            "bundled:x",
            "required:bundled:y",
          ],
        },
      },
    });
    expect(result.ok).toBe(true);
    expect(result.issues).toEqual([]);
  });

  it("warns, without failing, on what the platform accepts", () => {
    const result = validateAppManifest({
      schema: 2,
      required_executas: ["bundled:focus"],
      ui: {
        ...UI,
        host_api: { storage: ["*"], agent: { session: { auto: true }, tools: [] }, window: [] },
      },
    });
    expect(result.ok).toBe(true);
    expect(warningsOf(result.issues).map((i) => i.code)).toEqual([
      "manifest.executa_ref_string",
      "manifest.permission_missing",
      "manifest.permission_missing",
    ]);
  });

  it("never throws, whatever JSON it is given", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = validateAppManifest(value);
        expect(typeof result.ok).toBe("boolean");
      }),
      { numRuns: 300 },
    );
  });

  it("never throws on manifest-shaped junk either", () => {
    const junk = fc.record({
      schema: fc.oneof(fc.constant(1), fc.constant(2), fc.jsonValue()),
      required_executas: fc.oneof(
        fc.array(fc.oneof(fc.string(), fc.record({ tool_id: fc.string() }))),
        fc.jsonValue(),
      ),
      ui: fc.oneof(
        fc.constant(UI),
        fc.record({
          bundle: fc.record({ entry: fc.string() }),
          views: fc.array(
            fc.record({ name: fc.string(), title: fc.string(), default: fc.boolean() }),
          ),
          host_api: fc.dictionary(fc.string(), fc.array(fc.string())),
          csp_overrides: fc.dictionary(fc.string(), fc.array(fc.string())),
        }),
      ),
    });
    fc.assert(
      fc.property(junk, (value) => {
        const result = validateAppManifest(value);
        for (const issue of result.issues) expect(issue.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe("user_message_prefix_template", () => {
  it("counts non-overlapping placeholders", () => {
    expect(countUserMessagePlaceholders("[R] {user_message}")).toBe(1);
    expect(countUserMessagePlaceholders("{user_message}{user_message}")).toBe(2);
    expect(countUserMessagePlaceholders("{user_message")).toBe(0);
  });

  it("emits a JSON Schema pattern that agrees with the rule", () => {
    const schema = generateAppJsonSchemas()["manifest.json"] as {
      properties: { user_message_prefix_template: { anyOf: { pattern?: string }[] } };
    };
    const pattern = new RegExp(
      schema.properties.user_message_prefix_template.anyOf[0]?.pattern ?? "^$",
    );
    expect(pattern.test("[Research] {user_message}")).toBe(true);
    expect(pattern.test("a\n{user_message}\nb")).toBe(true);
    expect(pattern.test("none")).toBe(false);
    expect(pattern.test("{user_message} and {user_message}")).toBe(false);
  });
});

describe("stripDevBlock", () => {
  it("removes dev and nothing else, leaving the input untouched", () => {
    const manifest = AppManifestSchema.parse({
      schema: 1,
      required_executas: [{ tool_id: "t" }],
      dev: { user_id: 7 },
    });
    const stripped = stripDevBlock(manifest);
    expect("dev" in stripped).toBe(false);
    expect(stripped.required_executas).toEqual([{ tool_id: "t" }]);
    expect(manifest.dev).toEqual({ user_id: 7 });
  });
});

describe("normalizeExecutaRef", () => {
  it("turns the string shorthand into {tool_id}", () => {
    expect(normalizeExecutaRef("bundled:x")).toEqual({ tool_id: "bundled:x" });
    expect(normalizeExecutaRef({ tool_id: "t", version: "latest" })).toEqual({
      tool_id: "t",
      version: "latest",
    });
  });
});
