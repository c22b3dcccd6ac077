// Everything a command touches of the outside world, so tests and the REPL can swap it.
import type { Readable, Writable } from "node:stream";
import { colorEnabled, createStyle, type Style } from "./style.js";

export interface CliIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Colour for stdout. */
  style: Style;
  /** Colour for stderr. */
  errStyle: Style;
}

export function processIo(): CliIo {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    style: createStyle(colorEnabled(process.stdout)),
    errStyle: createStyle(colorEnabled(process.stderr)),
  };
}
