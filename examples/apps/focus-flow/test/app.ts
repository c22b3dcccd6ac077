// Where the Focus Flow example lives and what it needs, for the repository's tests of it.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PYTHON_VERSION } from "../../../../tests/support/toolchains.js";

export const APP_DIR = path.resolve(fileURLToPath(import.meta.url), "../..");
export const MANIFEST = path.join(APP_DIR, "manifest.json");
export const PLUGIN_DIR = path.join(APP_DIR, "executas/focus-session");
/** The recorded session kept in the repository (written by the browser test on request). */
export const HAPPY_PATH = path.join(APP_DIR, "fixtures/happy-path.jsonl");
export const TOOL_ID = "tool-dev-focus-session";
/** The executa is Python: without python3 its tests and the browser test skip. */
export const HAVE_PYTHON = PYTHON_VERSION !== undefined;
