// One plugin process under the conformance kit, playing the host: invokes carry the host's
// context (H9) with invoke ids the kit tracks, and every reverse call the plugin makes is routed
// the way the host's router does (T12): a known invoke_id is answered with the refusal of a host
// that has no services for that family, an unknown one with -32602 UNKNOWN_INVOKE_CONTEXT, an
// omitted one with several invokes in flight with -32602 MISSING_INVOKE_CONTEXT. Each reverse call
// is recorded so the invoke-id check can judge them all at the end.

import { DEFAULT_INVOKE_TIMEOUT_MS, buildInvokeParams } from "@anna-ai/executa-host";
import { PROTOCOL_ERRORS } from "@anna-ai/app-schema";
import type { Frame, JsonObject } from "../frame.js";
import type { PluginClient } from "../plugin-client.js";
import { refusingHost, type ReverseAnswer } from "../reverse.js";
import { startPlugin, type StartDirOptions, type StartedPlugin } from "../start-plugin.js";

/** Reverse calls recorded per session: enough to judge every one a conformance run makes. */
export const MAX_RECORDED_REVERSE_CALLS = 1_000;

export interface ReverseCall {
  method: string;
  /** The invoke id the plugin echoed (`context.invoke_id`, else `metadata.executa_invoke_id`). */
  invokeId: string | undefined;
  /** Invokes in flight when it arrived. */
  active: readonly string[];
  /** The T12 verdict the kit answered with; `abandoned`: an invoke the host gave up on. */
  routing: "matched" | "single_fallback" | "missing" | "unknown" | "abandoned";
  line: string;
}

function echoedInvokeId(params: JsonObject): string | undefined {
  const context = params.context;
  if (typeof context === "object" && context !== null) {
    const id = (context as JsonObject).invoke_id;
    if (typeof id === "string") return id;
  }
  const metadata = params.metadata;
  if (typeof metadata === "object" && metadata !== null) {
    const id = (metadata as JsonObject).executa_invoke_id;
    if (typeof id === "string") return id;
  }
  return undefined;
}

/** What a reverse call held open while its invoke is cancelled is answered with (D-sdk-8). */
const ABORTED_ANSWER: ReverseAnswer = {
  error: {
    code: PROTOCOL_ERRORS.SERVER_ERROR.code,
    message: "the invoke this call serves was cancelled by the host",
    data: { errorCode: "ABORTED" },
  },
};

function correlationError(errorCode: string, message: string): ReverseAnswer {
  return { error: { code: PROTOCOL_ERRORS.INVALID_PARAMS.code, message, data: { errorCode } } };
}

export class KitSession {
  readonly reverseCalls: ReverseCall[] = [];
  /** Reverse calls beyond MAX_RECORDED_REVERSE_CALLS (answered, not recorded). */
  droppedReverseCalls = 0;
  private readonly active = new Set<string>();
  private readonly abandoned = new Set<string>();
  /** Which tool each invoke id ran (to find the tools that make reverse calls). */
  private readonly toolOf = new Map<string, string>();
  /** Invokes whose reverse calls are held unanswered until `abandon` (the cancellation check). */
  private readonly held = new Map<
    string,
    { resolve(): void; arrived: Promise<void>; seen(): void }
  >();
  private nextInvoke = 1;
  private readonly refuse = refusingHost();

  private constructor(
    readonly client: PluginClient,
    readonly started: StartedPlugin,
    private readonly runId: string,
  ) {
    client.answerReverse((method, params, frame) => this.route(method, params, frame));
  }

  static async start(options: StartDirOptions, runId: string): Promise<KitSession> {
    const started = await startPlugin(options);
    return new KitSession(started.client, started, runId);
  }

  get exited(): boolean {
    return this.client.child.exitCode !== null || this.client.child.signalCode !== null;
  }

  /** A fresh invoke id; `begin` makes it active (the host's router does so when it sends). */
  newInvokeId(): string {
    return `conformance-${this.runId}-${this.nextInvoke++}`;
  }

  /** Send an invoke as the host shapes it; the id is active until the answer (or `abandon`). */
  invoke(tool: string, args: JsonObject, invokeId = this.newInvokeId()): Promise<Frame> {
    const params = buildInvokeParams({
      tool,
      args,
      invokeId,
      pluginName: this.started.spec.toolId,
      deadlineMs: Date.now() + DEFAULT_INVOKE_TIMEOUT_MS,
    });
    this.active.add(invokeId);
    this.toolOf.set(invokeId, tool);
    return this.client
      .request("invoke", params as unknown as JsonObject)
      .finally(() => this.active.delete(invokeId));
  }

  /** The host gave up on this invoke (cancel, timeout): its reverse calls are now unknown. */
  abandon(invokeId: string): void {
    this.active.delete(invokeId);
    this.abandoned.add(invokeId);
    this.held.get(invokeId)?.resolve();
    this.held.delete(invokeId);
  }

  /**
   * Hold the reverse calls of `invokeId` unanswered until it is abandoned, as a host does while
   * a service works; resolves once the first one arrived.
   */
  holdReverseCalls(invokeId: string): Promise<void> {
    let resolve = (): void => undefined;
    let seen = (): void => undefined;
    const released = new Promise<void>((r) => (resolve = r));
    const arrived = new Promise<void>((r) => (seen = r));
    this.held.set(invokeId, { resolve, arrived: released, seen });
    return arrived;
  }

  /** Tools that made at least one reverse call this session. */
  toolsWithReverseCalls(): Set<string> {
    const tools = new Set<string>();
    for (const call of this.reverseCalls) {
      const tool = call.invokeId === undefined ? undefined : this.toolOf.get(call.invokeId);
      if (tool !== undefined) tools.add(tool);
    }
    return tools;
  }

  dispose(): Promise<void> {
    return this.client.dispose();
  }

  private async route(method: string, params: JsonObject, frame: Frame): Promise<ReverseAnswer> {
    const invokeId = echoedInvokeId(params);
    const active = [...this.active];
    let routing: ReverseCall["routing"];
    if (invokeId === undefined) routing = active.length === 1 ? "single_fallback" : "missing";
    else if (this.active.has(invokeId)) routing = "matched";
    else routing = this.abandoned.has(invokeId) ? "abandoned" : "unknown";
    if (this.reverseCalls.length < MAX_RECORDED_REVERSE_CALLS) {
      this.reverseCalls.push({ method, invokeId, active, routing, line: frame.line });
    } else {
      this.droppedReverseCalls += 1;
    }
    const hold = invokeId === undefined ? undefined : this.held.get(invokeId);
    if (hold !== undefined) {
      hold.seen();
      await hold.arrived;
      return ABORTED_ANSWER;
    }
    if (routing === "unknown" || routing === "abandoned") {
      return correlationError(
        "UNKNOWN_INVOKE_CONTEXT",
        `context.invoke_id ${JSON.stringify(invokeId)} is not an invoke in flight`,
      );
    }
    if (routing === "missing") {
      return correlationError(
        "MISSING_INVOKE_CONTEXT",
        `${active.length} invokes are in flight and the call has no context.invoke_id`,
      );
    }
    return this.refuse(method, params, frame) as ReverseAnswer;
  }
}
