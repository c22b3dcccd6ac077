// `--dir <path>`: the executa folder the binary and trusted-publisher commands work in, as the
// published CLI 0.1.47 names it (the publish commands say `--cwd`).
import path from "node:path";
import type { FlagDef, FlagValues } from "../cli/args.js";
import type { CliIo } from "../cli/io.js";

export const DIR_FLAG: FlagDef = {
  name: "dir",
  type: "string",
  value: "<path>",
  description: "The executa folder (default: the current one)",
};

export const TOOL_ID_FLAG: FlagDef = {
  name: "tool-id",
  type: "string",
  value: "<id>",
  description: "The tool_id (default: the one in .anna/executa.json)",
};

export function dirOf(flags: FlagValues, io: CliIo): string {
  return typeof flags.dir === "string" ? path.resolve(io.cwd, flags.dir) : io.cwd;
}
