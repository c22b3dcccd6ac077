// What `manifest.dev.credentials` and `manifest.dev.installed_apps` (our extensions of the open
// `dev` block, L4994–L5021) check alike: the key is optional, its entries are records keyed by a
// non-empty string id with optional string fields, and a wrong shape is a launch error naming
// the path (`manifest dev.credentials.google[0].account_id must be a non-empty string`) rather
// than a surprise at the first call.
import { DevLaunchError } from "./load-app.js";

export interface DevBlockKey {
  /** The key's value as written; `undefined` when it is absent or `null`. */
  readonly raw: unknown;
  /** A launch error about `dev.<key><at>`, e.g. `at` = `.google[0].email`. */
  readonly fail: (at: string, what: string) => DevLaunchError;
  /**
   * `entry`, found at `at`, as a record whose `idKey` is a non-empty string and whose
   * `optionalStrings` are strings when set (absent or `null` is fine).
   */
  readonly record: <Id extends string>(
    entry: unknown,
    at: string,
    idKey: Id,
    optionalStrings: readonly string[],
  ) => Record<string, unknown> & Record<Id, string>;
}

/** The checks of one key of the `dev` block (`dev` itself may be absent). */
export function devBlockKey(dev: unknown, key: string): DevBlockKey {
  const raw = (dev as Record<string, unknown> | null | undefined)?.[key] ?? undefined;
  const fail = (at: string, what: string) => new DevLaunchError(`manifest dev.${key}${at} ${what}`);
  return {
    raw,
    fail,
    record<Id extends string>(
      entry: unknown,
      at: string,
      idKey: Id,
      optionalStrings: readonly string[],
    ) {
      if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
        throw fail(at, `must be an object with a string ${idKey}`);
      }
      const fields = entry as Record<string, unknown>;
      if (typeof fields[idKey] !== "string" || fields[idKey] === "") {
        throw fail(`${at}.${idKey}`, "must be a non-empty string");
      }
      for (const name of optionalStrings) {
        const value = fields[name];
        if (value !== undefined && value !== null && typeof value !== "string") {
          throw fail(`${at}.${name}`, "must be a string");
        }
      }
      return fields as Record<string, unknown> & Record<Id, string>;
    },
  };
}
