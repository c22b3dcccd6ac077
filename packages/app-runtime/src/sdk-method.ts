// How one Host API method looks on the SDK, derived from its contract in
// `@anna-ai/app-schema/host-api` (type-only: no schema reaches the browser bundle). The object
// form takes the contract's `args`; methods with positional names (`POSITIONAL_PARAMS`) also take
// those values in order; both resolve with the contract's `result`.
import type { HostApiMethod, HostApiNamespace } from "@anna-ai/app-schema";
import type { HostApiArgs, HostApiMethodKey, HostApiResult } from "@anna-ai/app-schema/host-api";
import type { CallOptions, PositionalParams } from "./args.js";

export type Json = Record<string, unknown>;

/** `T` without its index signature (loose objects carry `[k: string]: unknown`). */
type Known<T> = {
  [P in keyof T as string extends P ? never : number extends P ? never : P]: T[P];
};
type RequiredKeys<T> = {
  [P in keyof Known<T>]-?: object extends Pick<Known<T>, P> ? never : P;
}[keyof Known<T>];

/** `Omit` that keeps the known keys of a loose object (the built-in one keeps only the index). */
export type OmitKnown<T, K extends PropertyKey> = {
  [P in keyof T as P extends K ? never : P]: T[P];
};

/** The positional values of `names`, in order, then the options. */
type Positional<A, Names extends readonly string[]> = Names extends readonly [
  infer Head extends string,
  ...infer Rest extends readonly string[],
]
  ? Head extends RequiredKeys<A>
    ? [A[Head & keyof A], ...Positional<A, Rest>]
    : [(Head extends keyof A ? A[Head] : unknown)?, ...Positional<A, Rest>]
  : [opts?: CallOptions];

/** The object form: `args` may be left out when every field is optional. */
type ObjectForm<A, R> = [RequiredKeys<A>] extends [never]
  ? (args?: A, opts?: CallOptions) => Promise<R>
  : (args: A, opts?: CallOptions) => Promise<R>;

type PositionalForm<K extends string, A, R> = K extends keyof PositionalParams
  ? (...params: Positional<A, PositionalParams[K]>) => Promise<R>
  : unknown;

/** `anna.<ns>.<method>` for contract method `K`. */
export type SdkMethod<K extends HostApiMethodKey> = ObjectForm<HostApiArgs<K>, HostApiResult<K>> &
  PositionalForm<K, HostApiArgs<K>, HostApiResult<K>>;

type Plain<N extends HostApiNamespace> = Exclude<HostApiMethod<N>, `${string}.${string}`>;
type GroupOf<M> = M extends `${infer G}.${string}` ? G : never;

/**
 * Every method of namespace `N` as the contract types it; dotted methods nest
 * (`agent.session.create` → `agent.session.create`, `apps.deck.list` → `apps.deck.list`).
 */
export type SdkNamespace<N extends HostApiNamespace> = {
  [M in Plain<N>]: SdkMethod<`${N}.${M}` & HostApiMethodKey>;
} & {
  [G in GroupOf<HostApiMethod<N>>]: {
    [M in HostApiMethod<N> as M extends `${G}.${infer Tail}` ? Tail : never]: SdkMethod<
      `${N}.${M}` & HostApiMethodKey
    >;
  };
};
