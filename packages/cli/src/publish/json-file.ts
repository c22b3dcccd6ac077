// Project and cache files as the published CLI writes them (real-world-cli.md §8): 2-space JSON
// with a trailing newline, written to a temp file in the same folder and renamed into place, so
// a crash or Ctrl-C never leaves half a file that the next run would read as garbage.
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

export type JsonObject = Record<string, unknown>;

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp.${process.pid}`;
  try {
    await writeFile(tmp, JSON.stringify(value, null, 2) + "\n");
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** The file's JSON object; undefined when it is missing, unreadable or not an object. */
export async function readJsonObject(file: string): Promise<JsonObject | undefined> {
  try {
    const v = JSON.parse(await readFile(file, "utf8")) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}
