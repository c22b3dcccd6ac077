// `storage/*` keys and list prefixes (`validate_kv_key`, R43/R131; prefixes R45), checked by the
// one set of rules in @anna-ai/app-schema and answered as catalogued errors: a length problem
// (empty, over 1024, not a string) is INVALID_REQUEST (-32028, R43); an illegal shape is
// INVALID_PATH (-32027, R131).
import { storageKeyProblem, STORAGE_KEY_MAX_CHARS } from "@anna-ai/app-schema";
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError } from "../services/service-error.js";

/** Validates a KV key; throws the catalogued error. */
export function checkKvKey(key: unknown, method: string): string {
  if (typeof key !== "string" || key === "") {
    throw catalogError(
      STORAGE_ERRORS.INVALID_REQUEST,
      `${method}: 'key' is required (a non-empty string)`,
    );
  }
  const problem = storageKeyProblem(key);
  if (problem?.kind === "too_long") {
    throw catalogError(STORAGE_ERRORS.INVALID_REQUEST, `${method}: 'key' ${problem.message}`);
  }
  if (problem !== undefined) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_PATH,
      `${method}: key ${JSON.stringify(key)}: ${problem.message}`,
    );
  }
  return key;
}

/** Validates a `storage/list` prefix (R45): key rules, a trailing '/' allowed, '' = all. */
export function checkKvPrefix(prefix: unknown, method: string): string {
  if (prefix === undefined || prefix === null || prefix === "") return "";
  if (typeof prefix !== "string") {
    throw catalogError(STORAGE_ERRORS.INVALID_REQUEST, `${method}: 'prefix' must be a string`);
  }
  const problem = storageKeyProblem(prefix, { prefix: true });
  if (problem !== undefined) {
    throw catalogError(
      STORAGE_ERRORS.INVALID_PATH,
      problem.kind === "too_long"
        ? `${method}: 'prefix' is longer than ${STORAGE_KEY_MAX_CHARS} characters`
        : `${method}: prefix ${JSON.stringify(prefix)}: ${problem.message}`,
    );
  }
  return prefix;
}
