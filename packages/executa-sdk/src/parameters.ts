// Tool parameters: the typed helpers (`p.string()` …), the wire shape the manifest carries
// (L918–L924) and the argument check that runs before a handler (Python plugins call the tool
// function with `**arguments`, so a bad argument is a -32602 naming it; real-world-plugins.md).

export type ParameterType = "string" | "integer" | "number" | "boolean" | "array" | "object";

/** One entry of a tool's `parameters` list, exactly as `describe` returns it. */
export interface ParameterSpec {
  name: string;
  type: ParameterType;
  description?: string;
  /** Defaults to true on the wire (L920), so the SDK always writes it out. */
  required?: boolean;
  default?: unknown;
  enum?: readonly unknown[];
  /** Element type for arrays; `items_type` is the protocol shorthand and is accepted too. */
  items?: { type: ParameterType };
  items_type?: ParameterType;
}

/**
 * A typed parameter built by the `p` helpers. `T` is the value the handler receives and
 * `Optional` whether it may be absent (declared `required: false` without a `default`).
 * The two `__` members exist only for type inference.
 */
export interface Param<T, Optional extends boolean = boolean> {
  readonly type: ParameterType;
  readonly description?: string | undefined;
  readonly required: boolean;
  readonly default?: unknown;
  readonly enum?: readonly unknown[] | undefined;
  readonly items?: Param<unknown> | undefined;
  readonly __type?: T;
  readonly __optional?: Optional;
}

/** What a tool declares: a map of typed params (typed `args`) or a raw manifest list. */
export type ParametersInput = Readonly<Record<string, Param<unknown>>> | readonly ParameterSpec[];

type ValueOf<P> = P extends Param<infer T, boolean> ? T : never;
type RequiredKeys<S> = { [K in keyof S]: S[K] extends Param<unknown, false> ? K : never }[keyof S];
type OptionalKeys<S> = Exclude<keyof S, RequiredKeys<S>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The `args` a handler receives for a given parameter declaration. */
export type ArgsOf<S> = S extends readonly ParameterSpec[]
  ? Record<string, unknown>
  : S extends Readonly<Record<string, Param<unknown>>>
    ? Simplify<
        { readonly [K in RequiredKeys<S>]: ValueOf<S[K]> } & {
          readonly [K in OptionalKeys<S>]?: ValueOf<S[K]>;
        }
      >
    : Record<string, unknown>;

export interface CommonOptions<T> {
  description?: string;
  /** Defaults to true, as on the wire. A parameter with a `default` is never missing. */
  required?: boolean;
  default?: T;
}

export type OptionalFlag<O> = O extends { default: unknown }
  ? false
  : O extends { required: false }
    ? true
    : false;

function make<T, O extends boolean>(
  type: ParameterType,
  options: CommonOptions<unknown> & { enum?: readonly unknown[] } = {},
  items?: Param<unknown>,
): Param<T, O> {
  return {
    type,
    description: options.description,
    required: options.default === undefined ? options.required !== false : false,
    ...(options.default === undefined ? {} : { default: options.default }),
    enum: options.enum,
    items,
  };
}

/** Typed parameter helpers: `parameters: { city: p.string({ description: "City" }) }`. */
export const p = {
  string<const O extends CommonOptions<string> & { enum?: readonly string[] }>(
    options?: O,
  ): Param<O extends { enum: readonly (infer E extends string)[] } ? E : string, OptionalFlag<O>> {
    return make("string", options);
  },
  integer<const O extends CommonOptions<number> & { enum?: readonly number[] }>(
    options?: O,
  ): Param<number, OptionalFlag<O>> {
    return make("integer", options);
  },
  number<const O extends CommonOptions<number> & { enum?: readonly number[] }>(
    options?: O,
  ): Param<number, OptionalFlag<O>> {
    return make("number", options);
  },
  boolean<const O extends CommonOptions<boolean>>(options?: O): Param<boolean, OptionalFlag<O>> {
    return make("boolean", options);
  },
  array<I extends Param<unknown>, const O extends CommonOptions<readonly unknown[]>>(
    items: I,
    options?: O,
  ): Param<ValueOf<I>[], OptionalFlag<O>> {
    return make("array", options, items);
  },
  object<
    T extends object = Record<string, unknown>,
    const O extends CommonOptions<T> = CommonOptions<T>,
  >(options?: O): Param<T, OptionalFlag<O>> {
    return make("object", options);
  },
};

/** A parameter after normalisation: both declaration styles end up here. */
export interface NormalizedParameter {
  name: string;
  type: ParameterType;
  required: boolean;
  default?: unknown;
  enum?: readonly unknown[] | undefined;
  itemType?: ParameterType | undefined;
  items?: NormalizedParameter | undefined;
  spec: ParameterSpec;
}

function isParameterList(input: ParametersInput): input is readonly ParameterSpec[] {
  return Array.isArray(input);
}

function fromParam(name: string, param: Param<unknown>): NormalizedParameter {
  const items = param.items ? fromParam("items", param.items) : undefined;
  const spec: ParameterSpec = {
    name,
    type: param.type,
    ...(param.description === undefined ? {} : { description: param.description }),
    required: param.required,
    ...("default" in param ? { default: param.default } : {}),
    ...(param.enum === undefined ? {} : { enum: param.enum }),
    // Without an element type the host assumes a list of strings (L922), so always say it.
    ...(param.type === "array" ? { items: { type: items?.type ?? "string" } } : {}),
  };
  return {
    name,
    type: param.type,
    required: param.required,
    ...("default" in param ? { default: param.default } : {}),
    enum: param.enum,
    items,
    itemType: param.type === "array" ? (items?.type ?? "string") : undefined,
    spec,
  };
}

function fromSpec(spec: ParameterSpec): NormalizedParameter {
  const itemType =
    spec.type === "array" ? (spec.items?.type ?? spec.items_type ?? "string") : undefined;
  return {
    name: spec.name,
    type: spec.type,
    required: spec.required !== false && spec.default === undefined,
    ...(spec.default === undefined ? {} : { default: spec.default }),
    enum: spec.enum,
    itemType,
    spec: { ...spec, required: spec.required ?? true },
  };
}

export function normalizeParameters(input: ParametersInput | undefined): NormalizedParameter[] {
  if (input === undefined) return [];
  if (isParameterList(input)) return input.map(fromSpec);
  return Object.entries(input).map(([name, param]) => fromParam(name, param));
}

/** A bad argument: the runtime turns it into -32602 naming the argument. */
export class ArgumentError extends Error {
  readonly argument: string;
  constructor(argument: string, message: string) {
    super(message);
    this.name = "ArgumentError";
    this.argument = argument;
  }
}

function typeMatches(type: ParameterType, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
  }
}

const ARTICLE: Record<ParameterType, string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "a boolean",
  array: "an array",
  object: "an object",
};

function checkValue(
  param: NormalizedParameter,
  value: unknown,
  path: string,
  argument: string,
): void {
  if (!typeMatches(param.type, value)) {
    throw new ArgumentError(
      argument,
      `Invalid params: argument '${path}' must be ${ARTICLE[param.type]}`,
    );
  }
  if (param.enum !== undefined && !param.enum.includes(value)) {
    const allowed = param.enum.map((v) => JSON.stringify(v)).join(", ");
    throw new ArgumentError(
      argument,
      `Invalid params: argument '${path}' must be one of ${allowed}`,
    );
  }
  if (param.type === "array") {
    const items = param.items;
    const itemType = param.itemType;
    (value as unknown[]).forEach((item, index) => {
      const itemPath = `${path}[${index}]`;
      if (items) checkValue(items, item, itemPath, argument);
      else if (itemType !== undefined && !typeMatches(itemType, item)) {
        throw new ArgumentError(
          argument,
          `Invalid params: argument '${itemPath}' must be ${ARTICLE[itemType]}`,
        );
      }
    });
  }
}

function cloneDefault(value: unknown): unknown {
  return typeof value === "object" && value !== null ? structuredClone(value) : value;
}

/**
 * Checks `args` against the declared parameters and fills in defaults. Unknown keys are
 * rejected like Python's `**arguments`; `null` for an optional parameter counts as absent
 * because LLMs often send it that way. `allowed` names extra keys the platform may inject
 * (`account` for multi-account tools).
 */
export function validateArguments(
  parameters: readonly NormalizedParameter[],
  args: Record<string, unknown>,
  allowed: readonly string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const param of parameters) {
    const value = args[param.name];
    if (value === undefined || value === null) {
      if ("default" in param) out[param.name] = cloneDefault(param.default);
      else if (param.required) {
        throw new ArgumentError(
          param.name,
          `Invalid params: missing required argument '${param.name}'`,
        );
      }
      continue;
    }
    checkValue(param, value, param.name, param.name);
    out[param.name] = value;
  }
  for (const key of Object.keys(args)) {
    if (parameters.some((param) => param.name === key)) continue;
    if (!allowed.includes(key)) {
      throw new ArgumentError(key, `Invalid params: unexpected argument '${key}'`);
    }
    out[key] = args[key];
  }
  return out;
}
