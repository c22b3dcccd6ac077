import { parseArgs as nodeParseArgs } from "node:util";
import { usageError } from "./exit.js";

export interface FlagSpec {
  type: "string" | "boolean";
  value?: string;
  description: string;
}
export type Flags = Record<string, FlagSpec>;
export type FlagValues = Record<string, string | boolean | undefined>;

/** Strict parsing: unknown flags and stray positionals are usage errors naming the command. */
export function parseFlags(command: string, flags: Flags, argv: readonly string[]): FlagValues {
  try {
    const options = Object.fromEntries(
      Object.entries({ ...flags, help: { type: "boolean" as const, description: "" } }).map(
        ([k, f]) => [k, { type: f.type }],
      ),
    );
    const { values, positionals } = nodeParseArgs({
      args: [...argv],
      options,
      strict: true,
      allowPositionals: true,
    });
    if (positionals.length) throw usageError(`unexpected argument '${positionals[0]}'`, command);
    return values as FlagValues;
  } catch (err) {
    if (err instanceof Error && err.name === "ExitError") throw err;
    const e = err as { code?: string; message?: string };
    const unknown =
      e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
        ? /'([^']+)'/.exec(e.message ?? "")?.[1]
        : undefined;
    const msg = unknown ? `unknown option '${unknown}'` : (e.message ?? String(err)).split(". ")[0];
    throw usageError(msg ?? "invalid arguments", command);
  }
}

export function flagHelp(flags: Flags): string {
  const rows = Object.entries(flags).map(([k, f]) => [
    `--${k}${f.value ? ` ${f.value}` : ""}`,
    f.description,
  ]);
  const width = Math.max(...rows.map((r) => r[0]!.length)) + 2;
  return rows.map(([a, b]) => `  ${a!.padEnd(width)}${b}`).join("\n");
}

/** A port flag: 0–65535. */
export function parsePort(value: string, command: string, flag = "--port"): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw usageError(`${flag} must be a number from 0 to 65535 (got '${value}')`, command);
  }
  return Number(value);
}
