// `--json` and `--out <file>` of the benchmarks run with tsx (executa-dev, validate, app-dev):
// where their figures go, and writing them (bench/results/ is git-ignored).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** `--out <file>` wins; `--json` alone means `defaultPath`; neither, no file. */
export function jsonOutputPath(
  flags: { json?: boolean | undefined; out?: string | undefined },
  defaultPath: string,
): string | undefined {
  if (flags.out !== undefined) return resolve(flags.out);
  return flags.json === true ? defaultPath : undefined;
}

/** Pretty JSON and a final newline; says where it went. */
export function writeJsonFile(path: string, data: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(data, null, 2) + "\n");
  process.stdout.write(`wrote ${path}\n`);
}
