// `definePlugin({ manifest, tools })`: the tools map becomes the manifest's `tools[]` (what
// `describe` returns, bare, L843–L924) and the table the runtime dispatches invokes through.

import { serve, type ServeOptions } from "./serve.js";
import {
  normalizeParameters,
  type ArgsOf,
  type NormalizedParameter,
  type ParameterSpec,
  type ParametersInput,
} from "./parameters.js";
import type { ToolContext } from "./tool-context.js";

/** A declared secret (T14). `required` and `sensitive` default to true on the host. */
export interface CredentialSpec {
  name: string;
  display_name?: string;
  description?: string;
  required?: boolean;
  sensitive?: boolean;
  default?: string;
}

/** Everything of the manifest except `tools`, which the SDK builds from the tools map. */
export interface ManifestInput {
  /** Optional: identity is the `tool_id` of executa.json (H16). */
  name?: string;
  display_name?: string;
  version: string;
  description: string;
  author?: string;
  homepage?: string;
  icon?: string;
  category?: string;
  license?: string;
  credentials?: CredentialSpec[];
  runtime?: Record<string, unknown>;
  /** Reverse capabilities the plugin uses: `llm.sample`, `aps.kv`, `host.upload`, … (T13). */
  host_capabilities?: string[];
  [field: string]: unknown;
}

/** A tool as `describe` lists it. */
export interface ToolManifest {
  name: string;
  description: string;
  parameters: ParameterSpec[];
  timeout?: number;
  streaming?: boolean;
  multi_account?: boolean;
}

export interface Manifest extends ManifestInput {
  tools: ToolManifest[];
}

export interface ToolDefinition<S extends ParametersInput> {
  /** The prompt the LLM reads to pick the tool. */
  description: string;
  /**
   * Typed params (`{ city: p.string() }`) or a raw manifest list. Give `{}` for a tool without
   * arguments: TypeScript infers the handler's `args` from it.
   */
  parameters: S;
  /** Seconds the host allows per invoke (default 60). */
  timeout?: number;
  streaming?: boolean;
  /** The platform then injects an optional `account` argument. */
  multi_account?: boolean;
  /**
   * Returns the `data` the LLM sees. Throwing reports `{success: false, error: message}`
   * (an expected failure); throw an `RpcError` for a JSON-RPC error instead.
   */
  handler: (args: ArgsOf<S>, ctx: ToolContext) => unknown;
}

export interface HealthReport {
  status: "ready" | "error" | "initializing";
  message?: string;
  details?: Record<string, unknown>;
}

export interface PluginDefinition<P extends Record<string, ParametersInput>> {
  manifest: ManifestInput;
  tools: { [K in keyof P]: ToolDefinition<P[K]> };
  /** Answers `health`; default `{status: "ready"}`. */
  health?: () => HealthReport | Promise<HealthReport>;
}

/** A tool ready to dispatch: normalised parameters plus the handler. */
export interface CompiledTool {
  readonly name: string;
  readonly parameters: readonly NormalizedParameter[];
  /** Keys the platform may add besides the declared ones (`account`). */
  readonly extraArguments: readonly string[];
  readonly handler: (args: Record<string, unknown>, ctx: ToolContext) => unknown;
}

export interface Plugin {
  /** The manifest `describe` returns (built once, frozen). */
  describe(): Manifest;
  readonly tools: ReadonlyMap<string, CompiledTool>;
  readonly health: (() => HealthReport | Promise<HealthReport>) | undefined;
  /** Serves the plugin over this process's stdin/stdout until EOF, `shutdown` or SIGTERM. */
  serve(options?: ServeOptions): Promise<void>;
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

export function definePlugin<P extends Record<string, ParametersInput>>(
  definition: PluginDefinition<P>,
): Plugin {
  const tools = new Map<string, CompiledTool>();
  const toolManifests: ToolManifest[] = [];
  for (const [name, tool] of Object.entries(definition.tools) as [
    string,
    ToolDefinition<ParametersInput>,
  ][]) {
    if (!TOOL_NAME.test(name))
      throw new TypeError(`definePlugin: invalid tool name ${JSON.stringify(name)}`);
    const parameters = normalizeParameters(tool.parameters);
    const seen = new Set<string>();
    for (const param of parameters) {
      if (seen.has(param.name))
        throw new TypeError(`definePlugin: tool ${name} declares '${param.name}' twice`);
      seen.add(param.name);
    }
    tools.set(name, {
      name,
      parameters,
      extraArguments: tool.multi_account === true ? ["account"] : [],
      handler: tool.handler as CompiledTool["handler"],
    });
    toolManifests.push({
      name,
      description: tool.description,
      parameters: parameters.map((param) => param.spec),
      ...(tool.timeout === undefined ? {} : { timeout: tool.timeout }),
      ...(tool.streaming === undefined ? {} : { streaming: tool.streaming }),
      ...(tool.multi_account === undefined ? {} : { multi_account: tool.multi_account }),
    });
  }
  if (tools.size === 0) throw new TypeError("definePlugin: a plugin needs at least one tool");
  const manifest: Manifest = deepFreeze(
    structuredClone({ ...definition.manifest, tools: toolManifests }),
  );

  const plugin: Plugin = {
    describe: () => manifest,
    tools,
    health: definition.health,
    serve: (options?: ServeOptions) => serve(plugin, options),
  };
  return plugin;
}
