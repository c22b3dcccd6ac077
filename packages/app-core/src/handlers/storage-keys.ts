// `storage.*` keys and `files.*` paths of the app Host API, checked by the one set of rules in
// @anna-ai/app-schema (`validate_kv_key`, R131) and answered with Host API codes.
import { storageKeyProblem } from "@anna-ai/app-schema";
import { HostApiError } from "../errors/host-api-error.js";

/** Missing/empty/non-string → `invalid_arg`; a bad shape or length → `invalid_path`. */
export function checkKvKey(key: unknown, label = "key"): string {
  if (typeof key !== "string" || key === "") {
    throw new HostApiError("invalid_arg", `${label} required`, { field: label });
  }
  const problem = storageKeyProblem(key);
  if (problem !== undefined) {
    throw new HostApiError("invalid_path", `${label} ${JSON.stringify(key)}: ${problem.message}`, {
      field: label,
    });
  }
  return key;
}

/** A list prefix: plain startswith, may end with `/`; otherwise the key rules. */
export function checkKvPrefix(prefix: unknown): string {
  if (prefix === undefined || prefix === null || prefix === "") return "";
  if (typeof prefix !== "string") throw new HostApiError("invalid_arg", "prefix must be a string");
  const problem = storageKeyProblem(prefix, { prefix: true });
  if (problem !== undefined) {
    throw new HostApiError("invalid_path", `prefix ${JSON.stringify(prefix)}: ${problem.message}`, {
      field: "prefix",
    });
  }
  return prefix;
}
