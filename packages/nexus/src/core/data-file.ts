// A small file the data folder keeps for good once the first start wrote it (the token KEK, the
// node id). `wx` makes the first writer win: a second process starting at the same moment reads
// the first one's content instead of replacing it.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The trimmed content of `<dataDir>/<name>`, written with `make()` when the file is missing. */
export function readOrCreateDataFile(
  dataDir: string,
  name: string,
  make: () => string,
  mode = 0o600,
): { text: string; file: string } {
  const file = join(dataDir, name);
  try {
    return { text: readFileSync(file, "utf8").trim(), file };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, make() + "\n", { mode, flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  return { text: readFileSync(file, "utf8").trim(), file };
}
