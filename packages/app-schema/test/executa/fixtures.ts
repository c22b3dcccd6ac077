import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures");

/** A JSON fixture from test/fixtures, parsed. */
export function fixture(relativePath: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES, relativePath), "utf8")) as unknown;
}
