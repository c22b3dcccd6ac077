import { describe, expect, it } from "vitest";
import { createStyle } from "../../src/cli/style.js";
import { formatReport, reportJson } from "../../src/validate/report.js";
import type { ValidateReport } from "../../src/validate/validate-project.js";

const PLAIN = createStyle(false);

function report(overrides: Partial<ValidateReport> = {}): ValidateReport {
  return {
    ok: false,
    root: "/p",
    manifest: "manifest.json",
    bundle: "bundle",
    strict: true,
    errors: 1,
    warnings: 0,
    layers: [
      { layer: "schema", status: "passed", errors: 0, warnings: 0 },
      { layer: "ui", status: "failed", errors: 1, warnings: 0 },
      { layer: "cross-file", status: "skipped", errors: 0, warnings: 0 },
      { layer: "strict", status: "skipped", errors: 0, warnings: 0 },
    ],
    diagnostics: [
      {
        severity: "error",
        layer: "ui",
        code: "ui.views.count",
        file: "manifest.json",
        pointer: "/ui/views",
        line: 5,
        column: 3,
        message: "ui.views has 0 views; it needs between 1 and 16",
        specMessage: "ui.views 数量必须在 1..16 之间",
      },
    ],
    fixes: [],
    fixable: 0,
    ...overrides,
  };
}

describe("formatReport", () => {
  it("prints each finding with place, pointer, severity, code, message and the platform's words", () => {
    expect(formatReport(report(), PLAIN)).toBe(
      [
        "manifest.json:5:3 /ui/views error [ui.views.count]",
        "  ui.views has 0 views; it needs between 1 and 16",
        "  platform message: ui.views 数量必须在 1..16 之间",
        "",
        "✓ JSON Schema  ✗ UI static checks  - cross-file tool_id linter (skipped)  - --strict bundle grep (skipped)",
        "✗ manifest.json: 1 error, 0 warnings",
        "  later layers run once the errors above are fixed: cross-file tool_id linter, --strict bundle grep",
        "",
      ].join("\n"),
    );
  });

  it("lists fixes first, and suggests --fix and --strict when they apply", () => {
    const fixed = formatReport(
      report({
        ok: true,
        errors: 0,
        diagnostics: [],
        layers: report().layers.map((l) => ({ ...l, status: "passed" as const, errors: 0 })),
        fixes: [
          {
            file: "manifest.json",
            pointer: "/ui/host_api/storage",
            description: "granted storage.set",
          },
        ],
      }),
      PLAIN,
    );
    expect(fixed.split("\n")[0]).toBe(
      "fixed manifest.json /ui/host_api/storage: granted storage.set",
    );
    expect(fixed).toContain("✓ manifest.json is valid (0 errors, 0 warnings)");
    const hints = formatReport(report({ strict: false, fixable: 2 }), PLAIN);
    expect(hints).toContain("run with --strict");
    expect(hints).toContain("2 findings can be fixed automatically: run with --fix");
  });

  it("names a folder without a line and column", () => {
    const text = formatReport(
      report({
        diagnostics: [
          {
            ...report().diagnostics[0]!,
            file: "executas/timer/go.mod",
            pointer: "",
            line: 0,
            column: 0,
            code: "x",
          },
        ],
      }),
      PLAIN,
    );
    expect(text.split("\n")[0]).toBe("executas/timer/go.mod error [x]");
  });
});

describe("reportJson", () => {
  it("is one JSON line with a version", () => {
    const line = reportJson(report());
    expect(line).not.toContain("\n");
    expect(JSON.parse(line)).toMatchObject({ version: 1, ok: false, errors: 1 });
  });
});
