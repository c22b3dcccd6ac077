import { z } from "zod";

/**
 * The `dev` block (`AppDevConfig`, L4994–L5021): read by `anna-app dev` only, ignored by the
 * production dispatcher, stripped by `anna-app publish`. Unknown keys are allowed
 * (`extra="allow"`) so the harness can grow.
 */
export const AppDevConfigSchema = z.looseObject({
  /** Globs, relative to the manifest directory, of JSONL recordings to replay. */
  fixtures: z.array(z.string()).nullish(),
  /**
   * Static answers keyed `"ns.method"`. The value shape is opaque (the spec shows both
   * `{result: …}` and `{success, data}`, inventory X42), so it is not checked.
   */
  mocks: z.record(z.string(), z.unknown()).nullish(),
  /** Initial `runtime_state` for the in-memory window store. */
  seed_storage: z.record(z.string(), z.unknown()).nullish(),
  /** Overrides the harness's default user id (1). */
  user_id: z.int().nullish(),
});
export type AppDevConfig = z.infer<typeof AppDevConfigSchema>;

export const DEFAULT_DEV_USER_ID = 1;

/** A copy of the manifest without `dev`, as `anna-app publish` uploads it. */
export function stripDevBlock<T extends object>(manifest: T): Omit<T, "dev"> {
  const { dev: _dev, ...rest } = manifest as T & { dev?: unknown };
  return rest;
}
