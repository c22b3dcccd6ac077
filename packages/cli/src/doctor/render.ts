// The doctor table: one row per check, ✓ / ! / ✗, the version found and one line of detail.
import type { Style } from "../cli/style.js";
import type { CheckResult, CheckStatus, DoctorReport } from "./check.js";

const MARKS: Readonly<Record<CheckStatus, string>> = { ok: "✓", warn: "!", fail: "✗" };

export function renderDoctor(report: DoctorReport, style: Style): string {
  const color: Record<CheckStatus, (s: string) => string> = {
    ok: style.green,
    warn: style.yellow,
    fail: style.red,
  };
  const rows = report.account ? [...report.checks, report.account] : report.checks;
  const labelWidth = Math.max(...rows.map((c) => c.label.length)) + 2;
  const foundWidth = Math.max(...rows.map((c) => c.found.length)) + 2;
  const lines = [
    style.bold("anna-app doctor") + " — what building and running Executa plugins needs",
    "",
  ];
  const row = (check: CheckResult) => {
    const mark = color[check.status](MARKS[check.status]);
    const required = check.required ? style.dim(" (required)") : "";
    return `  ${mark} ${check.label.padEnd(labelWidth)}${check.found.padEnd(foundWidth)}${check.detail}${required}`;
  };
  for (const check of report.checks) lines.push(row(check));
  if (report.account) lines.push("", style.bold("Saved Nexus account"), row(report.account));
  lines.push("", summary(report, style));
  return lines.join("\n") + "\n";
}

function summary(report: DoctorReport, style: Style): string {
  const failed = report.checks.filter((c) => c.required && c.status === "fail");
  const warned = report.checks.filter((c) => c.status === "warn");
  if (failed.length > 0) {
    return style.red(
      `Not ready: ${failed.map((c) => c.label).join(", ")} ${failed.length === 1 ? "is" : "are"} required.`,
    );
  }
  const optional =
    warned.length === 0
      ? "nothing optional is missing"
      : `${warned.length} optional ${warned.length === 1 ? "piece" : "pieces"} missing or old (marked !)`;
  return style.green(`Ready: every required check passed; ${optional}.`);
}
