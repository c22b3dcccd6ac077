// `.anna/executa.json` in an executa folder: which server-side executa this folder published
// to, so the next publish updates it instead of minting (real-world-cli.md §8). It counts only
// for the same host and slug; a 404 on its id deletes it, and so does `executa cache-clear`.
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { writeJsonAtomic } from "./json-file.js";

export const IDENTITY_SCHEMA = "anna-executa-identity/v1";

export interface ExecutaIdentity {
  $schema: typeof IDENTITY_SCHEMA;
  host: string;
  executa_id: number;
  tool_id: string;
  slug: string;
  executa_type: "tool" | "skill";
  first_published_at: string;
}

export const identityPath = (dir: string) => path.join(dir, ".anna", "executa.json");

/** The cache if it is readable and names this host and slug; undefined otherwise. */
export async function readIdentity(
  dir: string,
  host: string,
  slug: string,
): Promise<ExecutaIdentity | undefined> {
  try {
    const v = JSON.parse(await readFile(identityPath(dir), "utf8")) as Partial<ExecutaIdentity>;
    if (
      v.host === host &&
      v.slug === slug &&
      typeof v.executa_id === "number" &&
      typeof v.tool_id === "string"
    ) {
      return v as ExecutaIdentity;
    }
  } catch {
    // Missing or unreadable: there is no usable cache.
  }
  return undefined;
}

export async function writeIdentity(dir: string, identity: ExecutaIdentity): Promise<void> {
  await writeJsonAtomic(identityPath(dir), identity);
}

/** True when there was a file to delete. */
export async function clearIdentity(dir: string): Promise<boolean> {
  try {
    await rm(identityPath(dir));
    return true;
  } catch {
    return false;
  }
}
