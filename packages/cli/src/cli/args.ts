// Declarative flags for every command: one table drives parsing, validation and --help, so the
// help text can never drift from what the parser accepts.
import { usageError } from "./exit-error.js";

export interface FlagDef {
  name: string;
  type: "boolean" | "string";
  /** Repeatable: values collect into an array. */
  multiple?: boolean;
  /** Placeholder shown in help, e.g. `<dir>`. */
  value?: string;
  description: string;
  /** Allowed values for string flags; anything else is a usage error naming them. */
  choices?: readonly string[];
}

export interface PositionalDef {
  name: string;
  description: string;
  required?: boolean;
}

export interface CommandSpec {
  /** Full command path, e.g. `executa dev`. */
  name: string;
  summary: string;
  /** One paragraph shown under the usage line. */
  description?: string;
  flags: readonly FlagDef[];
  positionals?: readonly PositionalDef[];
  examples: readonly string[];
}

export type FlagValues = Record<string, string | boolean | string[] | undefined>;

export interface ParsedArgs {
  flags: FlagValues;
  positionals: string[];
}

export const HELP_FLAG: FlagDef = { name: "help", type: "boolean", description: "Show this help" };

/**
 * Parse argv against a command spec. Accepts `--flag value`, `--flag=value`, `--no-<bool>` only
 * where declared, and `--` to end flags. Errors are one line naming the flag and what is valid.
 */
export function parseArgs(spec: CommandSpec, argv: readonly string[]): ParsedArgs {
  const defs = new Map<string, FlagDef>();
  for (const def of [...spec.flags, HELP_FLAG]) defs.set(def.name, def);
  const flags: FlagValues = {};
  const positionals: string[] = [];

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "-h") {
      flags.help = true;
      continue;
    }
    if (!arg.startsWith("--") || arg === "-") {
      if (arg.startsWith("-") && arg !== "-") {
        throw usageError(`unknown option '${arg}'`, spec.name);
      }
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const def = defs.get(name);
    if (!def) {
      const suggestion = closest(name, [...defs.keys()]);
      throw usageError(
        `unknown option '--${name}'${suggestion ? `; did you mean '--${suggestion}'?` : ""}`,
        spec.name,
      );
    }
    if (def.type === "boolean") {
      if (eq !== -1) throw usageError(`option '--${name}' takes no value`, spec.name);
      flags[name] = true;
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      // A value may be "-" (stdin) but not another flag.
      if (next === undefined || (next.startsWith("--") && next.length > 2)) {
        throw usageError(`option '--${name}' needs a value ${def.value ?? "<value>"}`, spec.name);
      }
      value = next;
      i++;
    }
    if (def.choices && !def.choices.includes(value)) {
      throw usageError(
        `option '--${name}' must be one of ${def.choices.join(", ")} (got '${value}')`,
        spec.name,
      );
    }
    if (def.multiple) {
      const list = (flags[name] as string[] | undefined) ?? [];
      list.push(value);
      flags[name] = list;
    } else {
      if (flags[name] !== undefined) {
        throw usageError(`option '--${name}' given twice`, spec.name);
      }
      flags[name] = value;
    }
  }
  return { flags, positionals };
}

export function renderHelp(spec: CommandSpec, style?: { bold(s: string): string }): string {
  const b = style?.bold ?? ((s: string) => s);
  const pos = (spec.positionals ?? [])
    .map((p) => (p.required ? `<${p.name}>` : `[${p.name}]`))
    .join(" ");
  const lines = [`${b("Usage:")} anna-app ${spec.name}${pos ? " " + pos : ""} [options]`, ""];
  lines.push(spec.summary);
  if (spec.description) lines.push("", spec.description);
  if (spec.positionals?.length) {
    lines.push("", b("Arguments:"));
    const width = Math.max(...spec.positionals.map((p) => p.name.length)) + 2;
    for (const p of spec.positionals) lines.push(`  ${p.name.padEnd(width)}${p.description}`);
  }
  const all = [...spec.flags, HELP_FLAG];
  const labels = all.map(
    (f) => `--${f.name}${f.type === "string" ? ` ${f.value ?? "<value>"}` : ""}`,
  );
  const width = Math.max(...labels.map((l) => l.length)) + 2;
  lines.push("", b("Options:"));
  all.forEach((f, i) => {
    const extra = f.multiple ? " (repeatable)" : "";
    lines.push(`  ${(labels[i] as string).padEnd(width)}${f.description}${extra}`);
  });
  if (spec.examples.length) {
    lines.push("", b("Examples:"));
    for (const e of spec.examples) lines.push(`  ${e}`);
  }
  return lines.join("\n") + "\n";
}

/** The closest candidate within edit distance 2, for "did you mean" hints. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j] as number;
      row[j] = Math.min(
        (row[j] as number) + 1,
        (row[j - 1] as number) + 1,
        prev + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      prev = tmp;
    }
  }
  return row[b.length] as number;
}
