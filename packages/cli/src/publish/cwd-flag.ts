// `--cwd <dir>`: the project folder a publish command works in (default: the current folder).
import path from "node:path";
import type { FlagDef, FlagValues } from "../cli/args.js";
import type { CliIo } from "../cli/io.js";

export const CWD_FLAG: FlagDef = {
  name: "cwd",
  type: "string",
  value: "<dir>",
  description: "Project folder (default: the current one)",
};

export function cwdOf(flags: FlagValues, io: CliIo): string {
  return typeof flags.cwd === "string" ? path.resolve(io.cwd, flags.cwd) : io.cwd;
}
