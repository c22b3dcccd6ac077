// How `executa dev` shows manifests, tool tables and invoke outcomes to a person.
import type { DescribedManifest, InvokeOutcome } from "@anna-ai/executa-host";
import { closest } from "../cli/args.js";
import { colorJson, type Style } from "../cli/style.js";

interface ParameterView {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

/** Parameters as declared: `parameters: [...]` or a JSON-Schema object (both exist in the wild). */
export function parametersOf(tool: Record<string, unknown>): ParameterView[] {
  const params = tool.parameters;
  if (Array.isArray(params)) {
    return params.flatMap((p) => {
      if (p === null || typeof p !== "object") return [];
      const entry = p as Record<string, unknown>;
      if (typeof entry.name !== "string") return [];
      let type = typeof entry.type === "string" ? entry.type : "string";
      if (type === "array") {
        const items = entry.items as { type?: unknown } | undefined;
        const inner = typeof items?.type === "string" ? items.type : entry.items_type;
        type = `array<${typeof inner === "string" ? inner : "string"}>`;
      }
      return [
        {
          name: entry.name,
          type,
          required: entry.required !== false,
          description: typeof entry.description === "string" ? entry.description : "",
        },
      ];
    });
  }
  if (params !== null && typeof params === "object") {
    const schema = params as {
      properties?: Record<string, { type?: unknown; description?: unknown }>;
      required?: unknown;
    };
    const required = Array.isArray(schema.required) ? schema.required : [];
    return Object.entries(schema.properties ?? {}).map(([name, prop]) => ({
      name,
      type: typeof prop.type === "string" ? prop.type : "any",
      required: required.includes(name),
      description: typeof prop.description === "string" ? prop.description : "",
    }));
  }
  return [];
}

export function toolsTable(manifest: DescribedManifest, style: Style): string {
  if (manifest.tools.length === 0) return style.dim("(the plugin declares no tools)");
  const rows: string[][] = [["TOOL", "PARAMETER", "TYPE", "REQ", "DESCRIPTION"]];
  for (const tool of manifest.tools) {
    const params = parametersOf(tool);
    const description = typeof tool.description === "string" ? tool.description : "";
    rows.push([tool.name, params.length ? "" : "(none)", "", "", truncate(description, 60)]);
    for (const p of params) {
      rows.push(["", p.name, p.type, p.required ? "yes" : "no", truncate(p.description, 60)]);
    }
  }
  const widths = (rows[0] as string[]).map((_, c) =>
    Math.max(...rows.map((r) => (r[c] ?? "").length)),
  );
  return rows
    .map((row, i) => {
      const text = row
        .map((cell, c) => cell.padEnd(widths[c] as number))
        .join("  ")
        .trimEnd();
      return i === 0 ? style.bold(text) : text;
    })
    .join("\n");
}

export function formatOutcome(tool: string, outcome: InvokeOutcome, style: Style): string {
  const ms = `${outcome.durationMs.toFixed(1)}ms`;
  if (outcome.ok) {
    return `${style.green("✓")} ${tool} ${style.dim(ms)}\n${colorJson(outcome.data, style)}`;
  }
  if (outcome.kind === "tool_failed") {
    const data = failureData(outcome.raw);
    const detail = data === undefined ? "" : `\n${colorJson(data, style)}`;
    return `${style.red("✗")} ${tool} failed ${style.dim(ms)}: ${outcome.error}${detail}`;
  }
  const e = outcome.error;
  const errorCode = e.errorCode ? ` ${e.errorCode}` : "";
  const data = e.data !== undefined ? `\n${colorJson(e.data, style)}` : "";
  return `${style.red("✗")} ${tool} error ${e.code}${errorCode} ${style.dim(ms)}: ${e.message}${data}`;
}

/** The single `--json` line: `data` on success, `{success: false, error, data?}`, or the RPC error. */
export function outcomeJson(outcome: InvokeOutcome): string {
  if (outcome.ok) return JSON.stringify(outcome.data ?? null);
  if (outcome.kind === "tool_failed") {
    // No duration: the line is a contract, identical for identical runs. `data` is the plugin's
    // own detail (the SDK puts a host refusal's `{code, errorCode}` there) for scripts to switch on.
    const data = failureData(outcome.raw);
    return JSON.stringify({
      success: false,
      error: outcome.error,
      ...(data === undefined ? {} : { data }),
    });
  }
  return JSON.stringify(outcome.error.toJSON());
}

/** The `data` a plugin sent beside `success: false`, when it sent any. */
function failureData(raw: unknown): unknown {
  const data = (raw as { data?: unknown } | null | undefined)?.data;
  return data === null ? undefined : data;
}

/** Said after the plugin's answer to a tool it did not describe, with the nearest described name. */
export function undescribedToolLine(
  toolId: string,
  tool: string,
  names: readonly string[],
): string {
  const guess = closest(tool, names);
  const hint = guess === undefined ? "" : ` (did you mean '${guess}'?)`;
  return `${toolId} did not describe a tool '${tool}'${hint}; described tools: ${names.join(", ") || "(none)"}`;
}

function truncate(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? line.slice(0, max - 1) + "…" : line;
}
