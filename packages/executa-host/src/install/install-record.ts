// INSTALL.json (R78 step 9): what was installed from where, written into the version folder
// before it is committed, so a version folder never exists without its record.
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { InstallError } from "./install-error.js";
import { INSTALL_FILE } from "./layout.js";

export interface InstallRecord {
  schema: 1;
  tool_id: string;
  name: string;
  version: string;
  distribution_type: "binary" | "local";
  /** "v2": version folders + current; "legacy": one file at bin/{name} (EXECUTA_INSTALL_V2=0). */
  layout: "v2" | "legacy";
  /** Relative to the version folder (v2) or the install root (legacy). */
  entrypoint: string;
  url: string | null;
  sha256: string | null;
  size: number | null;
  format: string;
  platform: string;
  /** The `binary_urls` the asset was picked from (binary), or the local path. */
  binary_urls: unknown;
  source_path: string | null;
  installed_at: string;
}

const MAX_RECORD_BYTES = 1024 * 1024;

export async function readInstallRecord(dir: string): Promise<InstallRecord | undefined> {
  const file = path.join(dir, INSTALL_FILE);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return undefined;
  }
  if (text.length > MAX_RECORD_BYTES)
    throw new InstallError("NOT_INSTALLED", `${file} is too large to be an install record`);
  try {
    const json = JSON.parse(text) as InstallRecord;
    if (typeof json.tool_id !== "string" || typeof json.entrypoint !== "string") throw new Error();
    return json;
  } catch (err) {
    throw new InstallError(
      "NOT_INSTALLED",
      `${file} is not an install record; reinstall with \`anna-app executa install\``,
      { cause: err },
    );
  }
}
