// Terminal colour, off when NO_COLOR is set, when FORCE_COLOR=0, or when the stream is not a TTY.
import type { Writable } from "node:stream";

export interface Style {
  enabled: boolean;
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  blue(s: string): string;
  magenta(s: string): string;
  cyan(s: string): string;
}

const wrap = (on: boolean, open: number, close: number) => (s: string) =>
  on ? `\u001b[${open}m${s}\u001b[${close}m` : s;

export function createStyle(enabled: boolean): Style {
  return {
    enabled,
    bold: wrap(enabled, 1, 22),
    dim: wrap(enabled, 2, 22),
    red: wrap(enabled, 31, 39),
    green: wrap(enabled, 32, 39),
    yellow: wrap(enabled, 33, 39),
    blue: wrap(enabled, 34, 39),
    magenta: wrap(enabled, 35, 39),
    cyan: wrap(enabled, 36, 39),
  };
}

export function colorEnabled(stream: Writable, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0";
  return (stream as { isTTY?: boolean }).isTTY === true;
}

/** JSON with keys, strings, numbers and literals coloured; plain JSON when colour is off. */
export function colorJson(value: unknown, style: Style, indent = 2): string {
  const text = JSON.stringify(value, null, indent) ?? "undefined";
  if (!style.enabled) return text;
  return text.replace(
    /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g,
    (match, str: string | undefined, colon: string | undefined, lit: string | undefined) => {
      if (str !== undefined) return colon ? style.cyan(str) + colon : style.green(str);
      if (lit !== undefined) return style.magenta(lit);
      return style.yellow(match);
    },
  );
}
