// The shape of one Host API method's contract: what the dispatcher validates its arguments with,
// what it answers, and which error codes it may answer with. The dispatcher (app-core) checks
// `args`; the browser SDK (app-runtime) takes its types from `z.input<args>` / `z.output<result>`
// through type-only imports, so no schema reaches the browser bundle.
import { z } from "zod";
import type { HostApiErrorCode } from "./errors.js";

export interface MethodContract<
  A extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  E extends HostApiErrorCode = HostApiErrorCode,
> {
  /** The `args` object; checked before the handler runs, a failure answers `invalid_arg`. */
  readonly args: A;
  /** The `result` of `{ok: true, result}`. Loose where hosts may add fields. */
  readonly result: R;
  /** Codes this method answers with beside `CALL_ERROR_CODES` (which every call may). */
  readonly errors: readonly E[];
}

/**
 * Codes any call may answer with before (or around) its handler: the token, the window, the ACL,
 * the argument check, the in-flight cap, a handler bug.
 */
export const CALL_ERROR_CODES = Object.freeze([
  "invalid_token",
  "not_found",
  "permission_denied",
  "method_not_found",
  "invalid_arg",
  "rate_limited",
  "internal_error",
] as const satisfies readonly HostApiErrorCode[]);

/** What a method backed by a host service adds: no such service here, or its facade's codes. */
export const SERVICE_ERROR_CODES = Object.freeze([
  "not_implemented",
  "APP_NOT_GRANTED",
  "APP_INVALID_REQUEST",
  "APP_QUOTA_EXCEEDED",
  "APP_PROVIDER_ERROR",
] as const satisfies readonly HostApiErrorCode[]);

/** A schema built the first time it is asked for, then kept. */
export type LazySchema<S extends z.ZodType = z.ZodType> = () => S;

/**
 * The contract's schemas are built on first use, not at import: building all of them (a few
 * hundred zod objects) was most of what the Host API contract added to a server's start
 * (D-schema-52), and a process that serves a few methods needs only theirs.
 */
export function lazySchema<S extends z.ZodType>(build: () => S): LazySchema<S> {
  let built: S | undefined;
  return () => (built ??= build());
}

export function hostMethod<
  A extends z.ZodType,
  R extends z.ZodType,
  const E extends HostApiErrorCode = never,
>(args: () => A, result: () => R, errors: readonly E[] = []): MethodContract<A, R, E> {
  const argsSchema = lazySchema(args);
  const resultSchema = lazySchema(result);
  return Object.freeze({
    get args() {
      return argsSchema();
    },
    get result() {
      return resultSchema();
    },
    errors: Object.freeze([...errors]),
  });
}

/**
 * A field the handler checks itself, so the answer carries the handler's code and message (a
 * storage key's `invalid_path` with the key rules' reason, `key required` rather than zod's
 * wording): the argument schema lets anything through, and callers are typed `T` (required).
 * The output is `unknown` so a handler cannot forget to check it. `.optional()` for a field
 * callers may omit.
 */
export function checkedByHandler<T>(): z.ZodType<unknown, T> {
  return z.unknown().optional() as unknown as z.ZodType<unknown, T>;
}

/** Any JSON object. */
export const JsonObjectSchema = lazySchema(() => z.record(z.string(), z.unknown()));

/** An answer with nothing in it (`{}`), which hosts may extend. */
export const EmptyResultSchema = lazySchema(() => z.looseObject({}));

/** Methods that take no arguments still take an object; unknown keys are ignored. */
export const NoArgsSchema = lazySchema(() => z.looseObject({}));
