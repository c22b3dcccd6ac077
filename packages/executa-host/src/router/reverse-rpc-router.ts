// The reverse-RPC router (T10–T13, H12–H15): one RouterSession per plugin process. A reverse
// request goes through, in order: method lookup → invoke correlation (T12) → the three gates
// (negotiated, declared, granted; H13) → params → storage scope (H14) → per-invoke budget →
// the host service. Every refusal is an RpcError with the family's catalog code and a message
// that says what to fix.
import { PROGRESS_METHOD } from "@anna-ai/app-schema";
import { HOST_ERRORS, PROTOCOL_ERRORS } from "@anna-ai/app-schema/errors";
import { NULL_LOGGER, RpcError } from "@anna-ai/jsonrpc";
import type { Logger } from "@anna-ai/jsonrpc";
import type { GrantByFamily, GrantPolicy, GrantFamily } from "../services/grants.js";
import type { HostServices } from "../services/host-services.js";
import type { ServiceContext } from "../services/service-context.js";
import { catalogError } from "../services/service-error.js";
import type { TokenIssuer } from "../tokens/token-issuer.js";
import { TOKEN_AUDIENCES } from "../tokens/token-issuer.js";
import type {
  InvokeStart,
  PluginSessionInfo,
  RouterSession,
  RouterSessionFactory,
} from "./contracts.js";
import { correlate, progressInvokeId } from "./correlation.js";
import { credentialsClaim, providersForCredentials } from "./credential-providers.js";
import { InvokeBudget } from "./invoke-budget.js";
import type { Reservation } from "./invoke-budget.js";
import type { RouterLimits } from "./limits.js";
import { DEFAULT_ROUTER_LIMITS, UPLOAD_ALLOWED_PURPOSES, capped } from "./limits.js";
import { FAMILY_CODES, REVERSE_METHODS, unservedMethodEntry } from "./method-table.js";
import type { MethodSpec } from "./method-table.js";
import { InvalidParamsError, checkParams } from "./params.js";
import { ProgressRateLimiter, coerceProgressType, progressBytes } from "./progress.js";
import type { ProgressDrop, RouterProgressListener } from "./progress.js";
import { RecentIds } from "./recent-ids.js";
import { allowedScopes, checkScope } from "./storage-scope.js";

/** Finished invoke ids remembered per session, to tell "finished" from "never existed". */
export const FINISHED_INVOKES_REMEMBERED = 1024;

export interface ReverseRpcRouterOptions {
  /** The host services; a missing one makes its family unavailable (gate code, no token). */
  services: Partial<HostServices>;
  /** Gate 3: the user's grants. */
  grants: GrantPolicy;
  /** Mints the per-invoke tokens (H15). Without one, beginInvoke returns no tokens. */
  tokens?: TokenIssuer;
  logger?: Logger;
  /** Overrides of the spec limits (tests, self-hosted deployments). */
  limits?: Partial<RouterLimits>;
  /** Receives `executa/progress` events; without it they are dropped (T29). */
  onProgress?: RouterProgressListener;
  /**
   * Also require the family's key in the plugin's initialize capabilities when the plugin
   * announced any. Off by default: real plugins turn their clients on from `protocolVersion`
   * alone and announce inconsistent keys (D-host-44).
   */
  strictPluginCapabilities?: boolean;
  /** Epoch ms; injectable for the progress rate limit. */
  now?: () => number;
  /**
   * OAuth provider id → the credential names that map to it (`credential_mapping`'s
   * `$access_token` entries), for the `providers` claim of `credentials_token`. Default
   * `OAUTH_CREDENTIAL_ALIASES` (the spec's google and twitter); a server with operator-configured
   * providers passes its own registry.
   */
  credentialAliases?: Readonly<Record<string, readonly string[]>>;
}

/** The token fields beginInvoke adds to `context` (H9, T11, R66). */
export type InvokeTokenField =
  "sampling_token" | "storage_token" | "image_token" | "upload_token" | "credentials_token";

export class ReverseRpcRouter implements RouterSessionFactory {
  readonly #options: ReverseRpcRouterOptions;
  readonly #limits: RouterLimits;

  constructor(options: ReverseRpcRouterOptions) {
    this.#options = options;
    this.#limits = { ...DEFAULT_ROUTER_LIMITS, ...options.limits };
  }

  attach(info: PluginSessionInfo): RouterSession {
    return new ReverseRpcSession(info, this.#options, this.#limits);
  }
}

/**
 * One invoke in flight. Most invokes make no reverse call, so what only a reverse call needs (the
 * abort controller, the budget, the progress window) is created on first use: an
 * `AbortController` aborted per invoke cost ~15 µs and promoted ~400 B to the old generation,
 * which showed up as GC pauses in the invoke p99 (bench/README.md).
 */
class InvokeState {
  readonly start: InvokeStart;
  readonly grants: Partial<GrantByFamily>;
  readonly tokens: Partial<Record<InvokeTokenField, string>>;
  readonly #limits: RouterLimits;
  #controller: AbortController | undefined;
  /** The last request signal combined with the invoke's, and the result (one per peer, usually). */
  #combinedFrom: AbortSignal | undefined;
  #combined: AbortSignal | undefined;
  #budget: InvokeBudget | undefined;
  #progress: ProgressRateLimiter | undefined;

  constructor(
    start: InvokeStart,
    grants: Partial<GrantByFamily>,
    tokens: Partial<Record<InvokeTokenField, string>>,
    limits: RouterLimits,
  ) {
    this.start = start;
    this.grants = grants;
    this.tokens = tokens;
    this.#limits = limits;
  }

  get budget(): InvokeBudget {
    return (this.#budget ??= new InvokeBudget(this.#limits));
  }

  get progress(): ProgressRateLimiter {
    return (this.#progress ??= new ProgressRateLimiter(this.#limits.progressMaxEventsPerS));
  }

  /** A signal that aborts when the request's signal does or when the invoke ends. */
  signalFor(requestSignal: AbortSignal): AbortSignal {
    if (this.#combinedFrom === requestSignal && this.#combined !== undefined) return this.#combined;
    this.#controller ??= new AbortController();
    const combined = AbortSignal.any([requestSignal, this.#controller.signal]);
    this.#combinedFrom = requestSignal;
    this.#combined = combined;
    return combined;
  }

  /** Aborts the signals handed out, if any were. */
  end(reason: Error): void {
    this.#controller?.abort(reason);
  }
}

/**
 * Abort reasons, shared: a fresh Error per invoke cost 4–6 µs for its stack. A service that
 * needs to know which invoke ended has `ctx.invokeId`.
 */
const INVOKE_FINISHED = new Error("the invoke finished");
const PROCESS_GONE = new Error("plugin process is gone");

/** Which token a family's services forward; web has none (the grant is checked per call, L11415). */
const FAMILY_TOKEN: Readonly<Partial<Record<GrantFamily, InvokeTokenField>>> = {
  sampling: "sampling_token",
  agent: "sampling_token",
  embeddings: "sampling_token",
  storage: "storage_token",
  files: "storage_token",
  image: "image_token",
  upload: "upload_token",
  credentials: "credentials_token",
};

class ReverseRpcSession implements RouterSession {
  readonly #info: PluginSessionInfo;
  readonly #options: ReverseRpcRouterOptions;
  readonly #limits: RouterLimits;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #active = new Map<string, InvokeState>();
  readonly #finished = new RecentIds(FINISHED_INVOKES_REMEMBERED);
  /** Gates 1–2 never change for a process: method → why it is closed (undefined = open). */
  readonly #gateProblems = new Map<string, string | undefined>();
  readonly #warned = new Set<string>();
  /** Computed on the first invoke (gates 1–2 only), see #openFamilies. */
  #families: readonly GrantFamily[] | undefined;
  /** OAuth providers the declared credential names map to (R66); fixed for the process. */
  readonly #declaredProviders: readonly string[];
  #disposed = false;

  constructor(info: PluginSessionInfo, options: ReverseRpcRouterOptions, limits: RouterLimits) {
    this.#info = info;
    this.#options = options;
    this.#limits = limits;
    this.#logger = options.logger ?? NULL_LOGGER;
    this.#now = options.now ?? Date.now;
    this.#declaredProviders = providersForCredentials(
      info.credentialNames ?? [],
      options.credentialAliases,
    );
  }

  // ── invokes ────────────────────────────────────────────────────────────────────────────

  beginInvoke(start: InvokeStart): Record<string, string> | Promise<Record<string, string>> {
    try {
      if (this.#disposed) throw new Error("router session is disposed");
      if (this.#active.has(start.invokeId)) {
        throw new Error(`invoke ${start.invokeId} is already active`);
      }
      // Gate 3 is asked once per invoke and family whose methods pass gates 1–2; the answer is
      // pinned for the invoke, like the token that carries it. A policy that answers with plain
      // values (static grants) and no token issuer keep the whole call synchronous.
      const grants = this.#askGrants(this.#openFamilies(), 0, {}, start);
      if (isPromiseLike(grants)) {
        return grants.then((asked) => this.#finishBegin(start, asked));
      }
      return this.#finishBegin(start, grants);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #finishBegin(
    start: InvokeStart,
    grants: Partial<GrantByFamily>,
  ): Record<string, string> | Promise<Record<string, string>> {
    if (this.#options.tokens === undefined) return this.#activate(start, grants, {});
    return this.#mintTokens(start, grants).then((tokens) => this.#activate(start, grants, tokens));
  }

  #activate(
    start: InvokeStart,
    grants: Partial<GrantByFamily>,
    tokens: Partial<Record<InvokeTokenField, string>>,
  ): Record<string, string> {
    if (!this.#finished.has(start.invokeId) && !this.#disposed) {
      this.#active.set(start.invokeId, new InvokeState(start, grants, tokens, this.#limits));
    }
    return { ...tokens };
  }

  /** The grant families with at least one method through gates 1–2, which never change. */
  #openFamilies(): readonly GrantFamily[] {
    if (this.#families !== undefined) return this.#families;
    const families = new Set<GrantFamily>();
    for (const spec of REVERSE_METHODS.values()) {
      if (this.#gateProblem(spec) === undefined) families.add(spec.grantFamily);
    }
    this.#families = [...families];
    return this.#families;
  }

  /** Asks `families[from…]` in order, one at a time; goes async at the first promised answer. */
  #askGrants(
    families: readonly GrantFamily[],
    from: number,
    grants: Partial<GrantByFamily>,
    start: InvokeStart,
  ): Partial<GrantByFamily> | Promise<Partial<GrantByFamily>> {
    const { userId, toolId } = this.#info;
    const invoke = start.app === undefined ? {} : { app: start.app };
    for (let i = from; i < families.length; i++) {
      const family = families[i] as GrantFamily;
      const answer = this.#options.grants.isGranted(userId, toolId, family, invoke);
      if (isPromiseLike(answer)) {
        return Promise.resolve(answer).then((grant) => {
          if (grant !== undefined) (grants as Record<string, unknown>)[family] = grant;
          return this.#askGrants(families, i + 1, grants, start);
        });
      }
      if (answer !== undefined) (grants as Record<string, unknown>)[family] = answer;
    }
    return grants;
  }

  endInvoke(invokeId: string): void {
    const state = this.#active.get(invokeId);
    this.#active.delete(invokeId);
    this.#rememberFinished(invokeId);
    state?.end(INVOKE_FINISHED);
  }

  dispose(): void {
    this.#disposed = true;
    for (const [invokeId, state] of this.#active) {
      state.end(PROCESS_GONE);
      this.#rememberFinished(invokeId);
    }
    this.#active.clear();
  }

  #rememberFinished(invokeId: string): void {
    this.#finished.add(invokeId);
  }

  async #mintTokens(
    start: InvokeStart,
    grants: Partial<GrantByFamily>,
  ): Promise<Partial<Record<InvokeTokenField, string>>> {
    const issuer = this.#options.tokens;
    if (!issuer) return {};
    const binding = {
      userId: this.#info.userId,
      toolId: this.#info.toolId,
      invokeId: start.invokeId,
    };
    const limits = this.#limits;
    const tokens: Partial<Record<InvokeTokenField, string>> = {};
    const sampling = grants.sampling ?? grants.agent;
    if (sampling || grants.embeddings) {
      tokens.sampling_token = await issuer.mint({
        ...binding,
        audience: TOKEN_AUDIENCES.sampling,
        extra: {
          max_calls: capped(sampling?.maxCalls, limits.samplingMaxCallsPerInvoke),
          max_tokens_total: capped(sampling?.maxTokensTotal, limits.samplingMaxTokensPerInvoke),
        },
      });
    }
    const storage = grants.storage ?? grants.files;
    if (storage) {
      tokens.storage_token = await issuer.mint({
        ...binding,
        audience: TOKEN_AUDIENCES.storage,
        extra: {
          allowed_scopes: allowedScopes(storage, start.app),
          max_calls: capped(storage.maxCalls, limits.storageMaxCallsPerInvoke),
        },
      });
    }
    if (grants.image) {
      tokens.image_token = await issuer.mint({
        ...binding,
        audience: TOKEN_AUDIENCES.image,
        extra: {
          max_per_call_generate: capped(
            grants.image.maxPerCallGenerate,
            limits.imageMaxPerCallGenerate,
          ),
          max_per_call_edit: capped(grants.image.maxPerCallEdit, limits.imageMaxPerCallEdit),
          max_images: capped(grants.image.maxImages, limits.imageMaxImagesPerInvoke),
        },
      });
    }
    const claim = this.#credentialsClaim(grants);
    if (claim.length > 0) {
      tokens.credentials_token = await issuer.mint({
        ...binding,
        audience: TOKEN_AUDIENCES.credentials,
        extra: { providers: claim },
      });
    }
    if (grants.upload) {
      tokens.upload_token = await issuer.mint({
        ...binding,
        audience: TOKEN_AUDIENCES.upload,
        extra: {
          max_file_bytes: capped(grants.upload.maxFileBytes, limits.uploadMaxFileBytes),
          max_total_bytes: capped(grants.upload.maxTotalBytes, limits.uploadMaxTotalBytesPerInvoke),
          max_files: capped(grants.upload.maxFiles, limits.uploadMaxFilesPerInvoke),
          allowed_purposes: (grants.upload.allowedPurposes ?? UPLOAD_ALLOWED_PURPOSES).filter((p) =>
            UPLOAD_ALLOWED_PURPOSES.includes(p),
          ),
        },
      });
    }
    return tokens;
  }

  /** The `providers` claim of this invoke's credentials token; empty = no token (R66). */
  #credentialsClaim(grants: Partial<GrantByFamily>): string[] {
    if (grants.credentials === undefined) return [];
    return credentialsClaim(this.#declaredProviders, grants.credentials.providers);
  }

  // ── gates 1 and 2 (H13) ────────────────────────────────────────────────────────────────

  #gateProblem(spec: MethodSpec): string | undefined {
    if (this.#gateProblems.has(spec.method)) return this.#gateProblems.get(spec.method);
    const problem = this.#computeGateProblem(spec);
    this.#gateProblems.set(spec.method, problem);
    return problem;
  }

  #computeGateProblem(spec: MethodSpec): string | undefined {
    const { toolId, protocolVersion, hostCapabilities, pluginCapabilities } = this.#info;
    if (protocolVersion !== "2.0") {
      return `executa ${toolId} did not negotiate protocol v2 (its initialize failed or was answered with -32601), so ${spec.method} is unavailable; answer initialize with protocolVersion "2.0"`;
    }
    if (spec.family === "credentials" && this.#declaredProviders.length === 0) {
      return `executa ${toolId} declares no credential that maps to an OAuth provider, so the host mints no credentials_token and ${spec.method} is unavailable; declare one in the manifest's credentials[] (e.g. GOOGLE_ACCESS_TOKEN for google, TWITTER_ACCESS_TOKEN for twitter)`;
    }
    if (
      spec.hostCapabilities.length > 0 &&
      !spec.hostCapabilities.some((cap) => hostCapabilities.includes(cap))
    ) {
      const cap = spec.hostCapabilities[0] ?? "";
      return `executa ${toolId} did not declare host_capabilities['${cap}']; add "${cap}" to host_capabilities in its describe manifest to use ${spec.method}`;
    }
    if (
      this.#options.strictPluginCapabilities &&
      spec.pluginCapabilities.length > 0 &&
      Object.keys(pluginCapabilities).length > 0 &&
      !spec.pluginCapabilities.some((key) => key in pluginCapabilities)
    ) {
      const key = spec.pluginCapabilities[0] ?? "";
      return `executa ${toolId} did not announce the '${key}' client capability in its initialize result, so ${spec.method} is unavailable`;
    }
    if (this.#options.services[spec.service] === undefined) {
      return `${spec.method} is not available on this host`;
    }
    return undefined;
  }

  /** Liberal gate 1: serve, but say once per family that the plugin did not announce it. */
  #warnIfUnannounced(spec: MethodSpec): void {
    const capabilities = this.#info.pluginCapabilities;
    const key = spec.pluginCapabilities[0];
    if (key === undefined || this.#warned.has(key) || Object.keys(capabilities).length === 0)
      return;
    if (spec.pluginCapabilities.some((k) => k in capabilities)) return;
    this.#warned.add(key);
    this.#logger.warn("reverse call family not announced in initialize; serving it anyway", {
      toolId: this.#info.toolId,
      method: spec.method,
      capability: key,
    });
  }

  // ── requests ───────────────────────────────────────────────────────────────────────────

  async handleRequest(method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    const spec = REVERSE_METHODS.get(method);
    if (spec === undefined) {
      const unserved = unservedMethodEntry(method);
      if (unserved !== undefined) {
        throw catalogError(unserved, `${method} is not available on this host`);
      }
      throw catalogError(PROTOCOL_ERRORS.METHOD_NOT_FOUND, `Method not found: ${method}`);
    }
    const codes = FAMILY_CODES[spec.family];
    const invoke = this.#correlate(spec, params);

    const gateProblem = this.#gateProblem(spec);
    if (gateProblem !== undefined) throw catalogError(codes.gate, gateProblem);
    this.#warnIfUnannounced(spec);
    let grant = invoke.grants[spec.grantFamily];
    if (spec.family === "credentials") grant = this.#credentialsGrant(invoke);
    if (grant === undefined || !this.#grantCovers(spec, grant)) {
      throw catalogError(
        codes.notGranted,
        spec.family === "credentials"
          ? `this invoke of executa ${this.#info.toolId} carries no credentials_token covering its declared providers (${this.#declaredProviders.join(", ")}); the host withheld it, so ${spec.method} cannot reach the user's accounts`
          : `user has not granted ${describeFamily(spec)} to executa ${this.#info.toolId}; the user can enable it for this tool in Anna Admin`,
      );
    }

    let checked: Record<string, unknown>;
    try {
      checked = checkParams(method, params, this.#limits);
    } catch (error) {
      if (error instanceof InvalidParamsError) {
        throw catalogError(codes.invalidRequest, error.message, undefined, { cause: error });
      }
      throw error;
    }

    if (spec.family === "storage" || spec.family === "files") {
      const storageGrant = grant as GrantByFamily["storage"];
      const scope = checkScope(checked["scope"], allowedScopes(storageGrant, invoke.start.app));
      if (!scope.ok) throw catalogError(codes.notGranted, scope.message);
      checked = { ...checked, scope: scope.scope };
    }

    const reservation = this.#reserve(spec, checked, grant, invoke);
    // A plugin's web call is the twin, never an app's, even when an app started the invoke: the
    // web service picks the plugin budgets (8 000 chars/page, 256 KiB, R157) and `tool` scope by
    // the absence of `app`.
    const app = spec.family === "web" ? undefined : invoke.start.app;
    const ctx: ServiceContext = {
      userId: this.#info.userId,
      toolId: this.#info.toolId,
      invokeId: invoke.start.invokeId,
      pluginName: this.#info.pluginName,
      tool: invoke.start.tool,
      deadlineMs: invoke.start.deadlineMs,
      signal: invoke.signalFor(signal),
      grant,
      ...(app ? { app } : {}),
      ...tokenOf(invoke, spec.grantFamily),
    };

    let result: unknown;
    try {
      result = await this.#dispatch(spec, checked, ctx);
    } catch (error) {
      reservation.release();
      throw this.#asWireError(spec, error);
    }
    reservation.settle(result);
    if (spec.method === "agent/session.run") {
      const tooLarge = invoke.budget.agentFrames(result);
      if (tooLarge) throw tooLarge;
    }
    return result;
  }

  #correlate(spec: MethodSpec, params: unknown): InvokeState {
    const found = correlate(params, this.#active, (id) => this.#finished.has(id));
    switch (found.kind) {
      case "invoke":
        return found.invoke;
      case "unknown": {
        // The id is plugin-supplied: keep messages and data bounded.
        const named =
          found.invokeId.length > 128 ? `${found.invokeId.slice(0, 128)}…` : found.invokeId;
        throw catalogError(
          HOST_ERRORS.UNKNOWN_INVOKE_CONTEXT,
          found.finished
            ? `invoke ${named} has already finished; ${spec.method} must be called while its invoke is in flight`
            : `invoke ${named} is not an active invoke of executa ${this.#info.toolId}; echo the invoke's own params.context.invoke_id`,
          { invokeId: named },
        );
      }
      case "missing":
        throw catalogError(
          HOST_ERRORS.MISSING_INVOKE_CONTEXT,
          `${found.active} invokes are in flight and ${spec.method} names none of them; send params.context.invoke_id (SDK: bind_invoke / bindInvoke)`,
          { activeInvokes: found.active },
        );
      case "none-active":
        throw catalogError(
          FAMILY_CODES[spec.family].gate,
          `${spec.method} was called outside any invoke; reverse calls are served only while an invoke is in flight`,
          { reason: "NO_ACTIVE_INVOKE" },
        );
    }
  }

  /**
   * What a credentials call may reach: `{enabled, providers: <claim>}` as the service reads it,
   * or undefined when this invoke has no token (grant withheld, or no declared provider left).
   */
  #credentialsGrant(invoke: InvokeState): GrantByFamily["credentials"] | undefined {
    const providers = this.#credentialsClaim(invoke.grants);
    return providers.length === 0 ? undefined : { enabled: true, providers };
  }

  #grantCovers(spec: MethodSpec, grant: GrantByFamily[GrantFamily]): boolean {
    if (spec.family !== "image") return true;
    const image = grant as GrantByFamily["image"];
    return spec.method === "image/edit" ? image.edit === true : image.generate !== false;
  }

  #reserve(
    spec: MethodSpec,
    params: Record<string, unknown>,
    grant: GrantByFamily[GrantFamily],
    invoke: InvokeState,
  ): Reservation {
    const budget = invoke.budget;
    switch (spec.family) {
      case "sampling":
        return budget.sampling(params["maxTokens"] as number, grant as GrantByFamily["sampling"]);
      case "storage":
      case "files":
        return budget.storage(grant as GrantByFamily["storage"]);
      case "image":
        return budget.images(
          spec.method === "image/edit",
          params["n"] as number,
          grant as GrantByFamily["image"],
        );
      case "upload":
        return budget.upload(params, grant as GrantByFamily["upload"]);
      default:
        return { settle: () => undefined, release: () => undefined };
    }
  }

  #dispatch(
    spec: MethodSpec,
    params: Record<string, unknown>,
    ctx: ServiceContext,
  ): Promise<unknown> {
    const service = this.#options.services[spec.service] as unknown as Record<
      string,
      (params: unknown, ctx: ServiceContext) => Promise<unknown>
    >;
    const method = spec.service === "upload" ? String(params["mode"]) : spec.serviceMethod;
    const fn = service[method];
    if (typeof fn !== "function") {
      return Promise.reject(
        catalogError(
          FAMILY_CODES[spec.family].gate,
          `${spec.method} is not available on this host`,
        ),
      );
    }
    return Promise.resolve().then(() => fn.call(service, params, ctx));
  }

  /** Catalogued RpcErrors pass through; anything else is the family's upstream error. */
  #asWireError(spec: MethodSpec, error: unknown): RpcError {
    if (error instanceof RpcError) return error;
    const message = error instanceof Error ? error.message : String(error);
    this.#logger.warn("host service failed", {
      toolId: this.#info.toolId,
      method: spec.method,
      error: message,
    });
    return catalogError(
      FAMILY_CODES[spec.family].upstream,
      message || `${spec.method} failed`,
      undefined,
      {
        cause: error,
      },
    );
  }

  // ── notifications ──────────────────────────────────────────────────────────────────────

  handleNotification(method: string, params: unknown): void {
    try {
      if (method !== PROGRESS_METHOD) {
        this.#logger.debug("ignored notification from plugin", {
          toolId: this.#info.toolId,
          method,
        });
        return;
      }
      const drop = this.#deliverProgress(params);
      if (drop !== undefined) {
        this.#logger.debug("dropped executa/progress", { toolId: this.#info.toolId, reason: drop });
      }
    } catch (error) {
      // A listener that throws must not take the plugin's stdout reader down with it.
      this.#logger.warn("progress listener failed", {
        toolId: this.#info.toolId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  #deliverProgress(params: unknown): ProgressDrop | undefined {
    const listener = this.#options.onProgress;
    if (!listener) return "no_listener";
    if (typeof params !== "object" || params === null || Array.isArray(params)) {
      return "not_an_object";
    }
    const invokeId = progressInvokeId(params);
    if (invokeId === undefined) return "no_invoke_id";
    const invoke = this.#active.get(invokeId);
    if (!invoke) return "unknown_invoke";
    const record = params as Record<string, unknown>;
    const data = record["data"] ?? null;
    const bytes = progressBytes(data);
    if (bytes === undefined || bytes > this.#limits.progressMaxEventBytes) return "too_large";
    const now = this.#now();
    if (!invoke.progress.tryTake(now)) return "rate_limited";
    listener({
      userId: this.#info.userId,
      toolId: this.#info.toolId,
      invokeId,
      tool: invoke.start.tool,
      type: coerceProgressType(record["type"]),
      data,
      receivedAtMs: now,
    });
    return undefined;
  }
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

function tokenOf(invoke: InvokeState, family: GrantFamily): { token?: string } {
  const field = FAMILY_TOKEN[family];
  const token = field === undefined ? undefined : invoke.tokens[field];
  return token === undefined ? {} : { token };
}

function describeFamily(spec: MethodSpec): string {
  switch (spec.method) {
    case "image/edit":
      return "image editing";
    case "image/generate":
      return "image generation";
    case "agent/complete":
      return "sampling (agent/complete)";
    default:
      return spec.grantFamily === "files" ? "file storage" : spec.grantFamily;
  }
}
