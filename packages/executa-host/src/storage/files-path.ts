// Object paths for `files/*` (`validate_path`, R46) and list prefixes (R49). Every problem is
// INVALID_PATH (-32027) except a missing/non-string path (INVALID_REQUEST, -32028). Runs of '/'
// collapse to one before the checks (R46 "canonicalised (collapse //)"; D-host-67).
import { codePointLength, FILES_PATH_MAX_CHARS, storageSegmentProblem } from "@anna-ai/app-schema";
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError } from "../services/service-error.js";

export function checkFilesPath(path: unknown, method: string): string {
  if (typeof path !== "string") {
    throw catalogError(STORAGE_ERRORS.INVALID_REQUEST, `${method}: 'path' is required (a string)`);
  }
  const invalid = (problem: string) =>
    catalogError(
      STORAGE_ERRORS.INVALID_PATH,
      `${method}: path ${JSON.stringify(path)}: ${problem}`,
    );
  const canonical = path.replace(/\/{2,}/g, "/");
  const length = codePointLength(canonical);
  if (length < 1 || length > FILES_PATH_MAX_CHARS) {
    throw invalid(`must be 1..${FILES_PATH_MAX_CHARS} characters`);
  }
  if (canonical.startsWith("/")) throw invalid("must be relative (no leading '/')");
  for (const segment of canonical.split("/")) {
    if (segment === "") throw invalid("must not end with '/'");
    const problem = storageSegmentProblem(segment);
    if (problem !== undefined) throw invalid(problem);
  }
  return canonical;
}

/** R49: ≤1024, no leading '/', empty segments allowed, matched literally. '' = everything. */
export function checkFilesPrefix(prefix: unknown, method: string): string {
  if (prefix === undefined || prefix === null || prefix === "") return "";
  if (typeof prefix !== "string") {
    throw catalogError(STORAGE_ERRORS.INVALID_REQUEST, `${method}: 'prefix' must be a string`);
  }
  if (codePointLength(prefix) > FILES_PATH_MAX_CHARS) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_PATH,
      `${method}: 'prefix' is longer than ${FILES_PATH_MAX_CHARS} characters`,
    );
  }
  if (prefix.startsWith("/")) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_PATH,
      `${method}: prefix ${JSON.stringify(prefix)} must be relative (no leading '/')`,
    );
  }
  return prefix;
}
