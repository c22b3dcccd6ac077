// How a validation report is printed: one block per finding for people (file:line:column, the
// pointer, the message, the spec's verbatim wording), one JSON document for CI.
import type { Style } from "../cli/style.js";
import type { Diagnostic } from "./diagnostic.js";
import type { ValidateReport } from "./validate-project.js";

/** Bumped when the `--json` shape changes incompatibly. */
export const VALIDATE_JSON_VERSION = 1;

const LAYER_TITLES: Record<string, string> = {
  schema: "JSON Schema",
  ui: "UI static checks",
  "cross-file": "cross-file tool_id linter",
  strict: "--strict bundle grep",
};

function where(d: Diagnostic): string {
  return d.line > 0 ? `${d.file}:${d.line}:${d.column}` : d.file;
}

export function formatDiagnostic(d: Diagnostic, style: Style): string {
  const severity = d.severity === "error" ? style.red("error") : style.yellow("warning");
  const pointer = d.pointer === "" ? "" : ` ${style.cyan(d.pointer)}`;
  const lines = [`${style.bold(where(d))}${pointer} ${severity} ${style.dim(`[${d.code}]`)}`];
  lines.push(`  ${d.message}`);
  if (d.specMessage !== undefined)
    lines.push(`  ${style.dim("platform message:")} ${d.specMessage}`);
  return lines.join("\n");
}

export function formatReport(report: ValidateReport, style: Style): string {
  const out: string[] = [];
  for (const fix of report.fixes) {
    out.push(
      `${style.green("fixed")} ${fix.file}${fix.pointer === "" ? "" : ` ${fix.pointer}`}: ${fix.description}`,
    );
  }
  if (report.fixes.length > 0) out.push("");
  for (const d of report.diagnostics) out.push(formatDiagnostic(d, style), "");
  const layers = report.layers
    .map((l) => {
      const mark =
        l.status === "passed"
          ? style.green("✓")
          : l.status === "failed"
            ? style.red("✗")
            : style.dim("-");
      const note = l.status === "skipped" ? style.dim(" (skipped)") : "";
      return `${mark} ${LAYER_TITLES[l.layer] ?? l.layer}${note}`;
    })
    .join("  ");
  out.push(layers);
  const counts = `${report.errors} error${report.errors === 1 ? "" : "s"}, ${report.warnings} warning${report.warnings === 1 ? "" : "s"}`;
  if (report.ok) {
    out.push(`${style.green("✓")} ${report.manifest} is valid (${counts})`);
  } else {
    out.push(`${style.red("✗")} ${report.manifest}: ${counts}`);
  }
  const skipped = report.layers.filter(
    (l) => l.status === "skipped" && (l.layer !== "strict" || report.strict),
  );
  if (skipped.length > 0) {
    out.push(
      style.dim(
        `  later layers run once the errors above are fixed: ${skipped.map((l) => LAYER_TITLES[l.layer]).join(", ")}`,
      ),
    );
  }
  if (!report.strict)
    out.push(
      style.dim(
        "  run with --strict to also check the bundle's Host API calls against ui.host_api",
      ),
    );
  if (report.fixable > 0 && report.fixes.length === 0) {
    out.push(
      style.dim(
        `  ${report.fixable} finding${report.fixable === 1 ? "" : "s"} can be fixed automatically: run with --fix`,
      ),
    );
  }
  return out.join("\n") + "\n";
}

export function reportJson(report: ValidateReport): string {
  return JSON.stringify({ version: VALIDATE_JSON_VERSION, ...report });
}
