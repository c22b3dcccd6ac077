// `.anna/executa.json` in an executa folder: which server-side executa this folder published
// to, so the next publish updates it instead of minting (real-world-cli.md §8). It counts only
// for the same host and slug; a 404 on its id deletes it, and so does `executa cache-clear`.
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { EXIT_INVALID_PROJECT, ExitError } from "../cli/exit-error.js";
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

/**
 * The tool_id a binary or trusted-publisher command acts on: `--tool-id`, else the identity
 * cache of `dir`, whose host must be the current one (real-world-cli.md §A: otherwise exit 4).
 */
export async function toolIdFor(
  dir: string,
  host: string,
  flag: string | undefined,
): Promise<string> {
  if (flag !== undefined) return flag;
  let v: Partial<ExecutaIdentity> | undefined;
  try {
    v = JSON.parse(await readFile(identityPath(dir), "utf8")) as Partial<ExecutaIdentity>;
  } catch {
    v = undefined;
  }
  if (typeof v?.tool_id !== "string") {
    throw new ExitError(
      EXIT_INVALID_PROJECT,
      `no tool_id: ${identityPath(dir)} is missing; run \`anna-app executa publish\` first or pass --tool-id <id>`,
    );
  }
  if (v.host !== host) {
    throw new ExitError(
      EXIT_INVALID_PROJECT,
      `${identityPath(dir)} is for ${String(v.host)}, not ${host}; pass --tool-id <id> or publish to ${host} first`,
    );
  }
  return v.tool_id;
}
