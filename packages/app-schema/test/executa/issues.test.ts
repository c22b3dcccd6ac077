import { describe, expect, it } from "vitest";
import { formatIssues } from "../../src/executa/issues.js";
import { ExecutaManifestSchema } from "../../src/executa/manifest.js";

describe("formatIssues", () => {
  it("explains a union failure through the branch that matched the type", () => {
    const result = ExecutaManifestSchema.safeParse({
      tools: [{ name: "t", parameters: { type: "object", required: "q" } }],
    });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(formatIssues(result.error.issues)).toEqual([
        "tools[0].parameters.required: Invalid input: expected array, received string",
      ]);
    }
  });

  it("keeps the union message when no branch matched the type", () => {
    const result = ExecutaManifestSchema.safeParse({ tools: [{ name: "t", parameters: "q" }] });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(formatIssues(result.error.issues)).toEqual(["tools[0].parameters: Invalid input"]);
  });

  it("lists every problem and names the root", () => {
    expect(
      formatIssues([
        { code: "invalid_type", path: [], message: "expected object" },
        { code: "too_small", path: ["a", 2], message: "too small" },
      ]),
    ).toEqual(["(root): expected object", "a[2]: too small"]);
  });
});
