// The Prometheus text exposition format (version 0.0.4), written by hand: a handful of metric
// families do not need a client library, and this keeps the output and its cost in view.

export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export type Labels = Readonly<Record<string, string>>;

export interface Sample {
  labels?: Labels;
  value: number;
  /** Appended to the family name (`_bucket`, `_sum`, `_count`). */
  suffix?: string;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram";
  samples: readonly Sample[];
}

function escapeLabel(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return String(v);
}

export function formatLabels(labels: Labels | undefined): string {
  if (!labels) return "";
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return parts.length ? `{${parts.join(",")}}` : "";
}

export function renderFamilies(families: readonly MetricFamily[]): string {
  let out = "";
  for (const f of families) {
    out += `# HELP ${f.name} ${f.help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}\n`;
    out += `# TYPE ${f.name} ${f.type}\n`;
    for (const s of f.samples) {
      out += `${f.name}${s.suffix ?? ""}${formatLabels(s.labels)} ${formatValue(s.value)}\n`;
    }
  }
  return out;
}
