// The Developer Terms settings of `anna-nexus start`: ANNA_DEVELOPER_TERMS_FILE (Markdown) with
// ANNA_DEVELOPER_TERMS_VERSION, and ANNA_SELF_SERVE_DEVELOPER=0 to have admins grant developer
// status instead. A new text needs a new version: activation checks the version, so people who
// accepted the old text are asked again only when it changes.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { NexusConfig } from "../core/config.js";
import { usageError } from "./exit.js";

/** The largest terms file read (a Markdown page, not a document store). */
const MAX_TERMS_BYTES = 256 * 1024;
const VERSION = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

type TermsConfig = Partial<
  Pick<NexusConfig, "developerTerms" | "developerTosVersion" | "selfServeDeveloper">
>;

export function developerTermsFromEnv(env: NodeJS.ProcessEnv, cwd: string): TermsConfig {
  const out: TermsConfig = {};
  const version = env.ANNA_DEVELOPER_TERMS_VERSION || undefined;
  const file = env.ANNA_DEVELOPER_TERMS_FILE || undefined;
  if (version !== undefined) {
    if (!VERSION.test(version)) {
      throw usageError(
        `ANNA_DEVELOPER_TERMS_VERSION is '${version}'; use up to 64 letters, digits, '.', '_' or '-', e.g. 2026-12`,
        "start",
      );
    }
    out.developerTosVersion = version;
  }
  if (file !== undefined) {
    if (version === undefined) {
      throw usageError(
        "ANNA_DEVELOPER_TERMS_FILE needs ANNA_DEVELOPER_TERMS_VERSION too: a new text needs a new version so people accept what they read",
        "start",
      );
    }
    const path = resolve(cwd, file);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (err) {
      throw usageError(
        `ANNA_DEVELOPER_TERMS_FILE ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}; give a readable Markdown file`,
        "start",
      );
    }
    if (Buffer.byteLength(text) > MAX_TERMS_BYTES || text.trim() === "") {
      throw usageError(
        `ANNA_DEVELOPER_TERMS_FILE ${path} is ${text.trim() === "" ? "empty" : "over 256 KiB"}; give the terms as a Markdown page`,
        "start",
      );
    }
    out.developerTerms = text;
  }
  const selfServe = env.ANNA_SELF_SERVE_DEVELOPER;
  if (selfServe !== undefined && selfServe !== "") {
    if (!/^(0|1|true|false|yes|no|on|off)$/i.test(selfServe)) {
      throw usageError(`ANNA_SELF_SERVE_DEVELOPER is '${selfServe}'; use 1 or 0`, "start");
    }
    out.selfServeDeveloper = /^(1|true|yes|on)$/i.test(selfServe);
  }
  return out;
}
