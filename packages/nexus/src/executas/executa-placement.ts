// One plugin process per (user, tool_id) across the nodes of a cluster (H11, D-nexus-168). The
// first node to invoke a (user, tool) becomes its owner (a row in `executa_owners`), keeps it
// with a heartbeat, and runs its process; another node's invoke for it is sent to the owner over
// NATS (an accept, then `working` beats and the outcome on the caller's inbox; a cancel is a
// message) and answered with the owner's outcome. When the owner does not answer because it is
// gone (no responder on its subject, or its heartbeat is old), the asking node takes the row
// over and starts a clean process itself; a call in flight whose owner goes silent ends within
// seconds. An owner gives a pair up once its pool let the process go (idle), and all of them
// when it stops. Without a bus (one node) there is no placement: every invoke runs locally.
import { randomUUID } from "node:crypto";
import type { ExecutaPool, InvokePlacement, PoolInvokeOptions } from "@anna-ai/agent";
import { HOST_ERRORS } from "@anna-ai/app-schema/errors";
import { type InvokeOutcome, invokeTimeoutMs } from "@anna-ai/executa-host";
import { RpcError } from "@anna-ai/jsonrpc";
import {
  createInbox,
  type Msg,
  type NatsConnection,
  type Subscription,
} from "@nats-io/transport-node";
import type { Kysely } from "kysely";
import type { Clock } from "../core/clock.js";
import type { Logger } from "../core/logger.js";
import type { Database } from "../db/schema.js";
import { nodeInvokeSubject } from "../bus/event-bus-subject.js";
import type { ResolvedExecuta } from "./executa-runtime.js";

/** How often an owner says it still holds its (user, tool) processes. */
export const EXECUTA_OWNER_HEARTBEAT_MS = 2_000;
/** An owner whose heartbeat is older than this is gone; the next invoke takes its rows over. */
export const EXECUTA_OWNER_STALE_MS = 15_000;
/** What a forwarded invoke waits for beyond the tool's own time limit (the hop, a cold start). */
const FORWARD_SLACK_MS = 30_000;
/** How long the owner has to say it took a forwarded invoke (or is not the owner). */
const ACCEPT_TIMEOUT_MS = 5_000;
/** While it runs a forwarded invoke the owner says so this often; past the silence, it is gone. */
const WORKING_EVERY_MS = 1_000;
const WORKING_SILENCE_MS = 4_000;
/** NATS's default `max_payload`, for the moments the server's own is not known (reconnecting). */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;
/** Invokes another node may have this one run at once; past it they answer "busy". */
const SERVED_MAX = 256;

export interface ExecutaPlacementOptions {
  db: Kysely<Database>;
  nats: NatsConnection;
  /** The event bus's subject prefix; invokes go to `<prefix>.invoke.n<node>`. */
  subjectPrefix: string;
  /** This node's id (ANNA_NODE_ID or `<data>/node-id`). */
  node: string;
  pool: ExecutaPool;
  /** Resolves a forwarded invoke's executa on this node (its own install folder). */
  prepare(toolId: string, executaVersionId: number, signal?: AbortSignal): Promise<ResolvedExecuta>;
  clock: Clock;
  logger: Logger;
  /**
   * Whether the bus is connected now. While it reconnects an invoke owned elsewhere fails at
   * once with a message that says so, instead of waiting out its time limit. Default: always.
   */
  connected?: () => boolean;
  heartbeatMs?: number;
  staleAfterMs?: number;
}

export interface ExecutaPlacement extends InvokePlacement {
  /** Serves other nodes' invokes and starts the heartbeat. */
  start(): Promise<void>;
  /** One heartbeat (the timer's work; tests call it). */
  heartbeat(): Promise<void>;
  /** Stops serving, gives this node's rows up so the others take over at once, stops the timer. */
  close(): Promise<void>;
  /** The (user, tool) pairs this node owns now (tests, metrics). */
  readonly owned: ReadonlySet<string>;
}

interface InvokeRequest {
  id: string;
  /** Where the owner sends `working` beats and the outcome; the request's reply is the accept. */
  reply_to: string;
  user_id: string;
  tool_id: string;
  executa_version_id: number;
  tool: string;
  args: Record<string, unknown> | undefined;
  timeout_ms?: number;
  app?: { appId: string; appScopeGranted: boolean };
}

type InvokeReply =
  | { outcome: WireOutcome }
  /** The owner took it: beats and the outcome follow on `reply_to`. */
  | { accepted: true }
  /** The owner is still running it. */
  | { working: true }
  /** The asked node does not own the pair (it restarted, or lost it): ask the table again. */
  | { not_owner: true }
  | { error: string };

type WireOutcome =
  | Exclude<InvokeOutcome, { kind: "rpc_error" }>
  | {
      ok: false;
      kind: "rpc_error";
      error: { code: number; message: string; data?: unknown };
      durationMs: number;
    };

const keyOf = (userId: string, toolId: string) => JSON.stringify([userId, toolId]);

export function executaPlacement(options: ExecutaPlacementOptions): ExecutaPlacement {
  const { db, nats, node, pool, logger } = options;
  const heartbeatMs = options.heartbeatMs ?? EXECUTA_OWNER_HEARTBEAT_MS;
  const staleAfterMs = options.staleAfterMs ?? EXECUTA_OWNER_STALE_MS;
  const now = () => options.clock.now();
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  /** The pairs this node owns, with when it claimed each: one without a process is kept that long. */
  const claimedAt = new Map<string, number>();
  /** Invokes this node runs for other nodes, by request id: a cancel message aborts one. */
  const served = new Map<string, AbortController>();
  let subscriptions: Subscription[] = [];
  let timer: NodeJS.Timeout | undefined;
  let beating: Promise<unknown> | undefined;
  let closed = false;

  /** This node if it owns (or now takes) the pair; else the owner's id. */
  async function claim(userId: string, toolId: string): Promise<string> {
    const at = now();
    const won = await db
      .insertInto("executa_owners")
      .values({ user_id: userId, tool_id: toolId, node, heartbeat_at: at })
      .onConflict((oc) =>
        oc
          .columns(["user_id", "tool_id"])
          .doUpdateSet({ node, heartbeat_at: at })
          .where((eb) =>
            eb.or([
              eb("executa_owners.node", "=", node),
              eb("executa_owners.heartbeat_at", "<", at - staleAfterMs),
            ]),
          ),
      )
      .returning("node")
      .executeTakeFirst();
    if (won !== undefined) {
      claimedAt.set(keyOf(userId, toolId), at);
      return node;
    }
    const row = await db
      .selectFrom("executa_owners")
      .select("node")
      .where("user_id", "=", userId)
      .where("tool_id", "=", toolId)
      .executeTakeFirst();
    // Given up between the two statements: claim again.
    return row?.node ?? claim(userId, toolId);
  }

  /** Takes the pair from `from`, which did not answer; false when someone else already did. */
  async function takeOver(userId: string, toolId: string, from: string): Promise<boolean> {
    const updated = await db
      .updateTable("executa_owners")
      .set({ node, heartbeat_at: now() })
      .where("user_id", "=", userId)
      .where("tool_id", "=", toolId)
      .where("node", "=", from)
      .executeTakeFirst();
    const took = Number(updated.numUpdatedRows) > 0;
    if (took) {
      claimedAt.set(keyOf(userId, toolId), now());
      logger.log("warn", "took over a plugin process from a node that did not answer", {
        user_id: userId,
        tool_id: toolId,
        from,
      });
    }
    return took;
  }

  async function forward(
    owner: string,
    userId: string,
    executa: ResolvedExecuta,
    tool: string,
    args: Record<string, unknown> | undefined,
    opts: PoolInvokeOptions,
  ): Promise<InvokeReply | "no_responder"> {
    const inbox = createInbox();
    const request: InvokeRequest = {
      id: randomUUID(),
      reply_to: inbox,
      user_id: userId,
      tool_id: executa.spec.toolId,
      executa_version_id: executa.executaVersionId,
      tool,
      args,
      ...(opts.timeoutMs === undefined ? {} : { timeout_ms: opts.timeoutMs }),
      ...(opts.app === undefined ? {} : { app: opts.app }),
    };
    const subject = nodeInvokeSubject(options.subjectPrefix, owner);
    // Subscribed before the request goes out, so no beat or outcome is missed.
    const answers = inboxQueue(nats, inbox);
    const onAbort = () => {
      try {
        nats.publish(`${subject}.cancel`, encoder.encode(request.id));
      } catch (err) {
        // The bus is closing: the owner's own time limit ends the invoke.
        logger.log("warn", "could not send a cancel to the plugin's node", {
          owner,
          error: String(err),
        });
      }
    };
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      let accept: InvokeReply;
      try {
        const msg = await nats.request(subject, encoder.encode(JSON.stringify(request)), {
          timeout: ACCEPT_TIMEOUT_MS,
        });
        accept = JSON.parse(decoder.decode(msg.data)) as InvokeReply;
      } catch (err) {
        if ((err as { isNoResponders?: () => boolean }).isNoResponders?.() === true) {
          return "no_responder";
        }
        return {
          error: `node ${owner}, which runs this plugin, did not take the call: ${String(err)}`,
        };
      }
      if (!("accepted" in accept)) return accept;
      // The owner's host applies the same limit; past it and the slack, the call is lost.
      const limit = invokeTimeoutMs(executa.manifest, tool, opts.timeoutMs);
      const deadline = Date.now() + limit + FORWARD_SLACK_MS;
      for (;;) {
        const wait = Math.min(WORKING_SILENCE_MS, deadline - Date.now());
        const next = await answers.next(wait);
        if (next === undefined) {
          return {
            error:
              Date.now() >= deadline
                ? `node ${owner} did not finish the call within its time limit`
                : `node ${owner}, which was running this call, stopped answering (it may have stopped); send it again`,
          };
        }
        const reply = JSON.parse(decoder.decode(next.data)) as InvokeReply;
        if (!("working" in reply) && !("accepted" in reply)) return reply;
      }
    } finally {
      answers.close();
      opts.signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Answers another node's request: the accept (or why not), then beats and the outcome. */
  async function serve(msg: Msg): Promise<void> {
    const request = JSON.parse(decoder.decode(msg.data)) as InvokeRequest;
    const respond = (reply: InvokeReply) => replyTo((d) => msg.respond(d), reply);
    const send = (reply: InvokeReply) =>
      replyTo((d) => (nats.publish(request.reply_to, d), true), reply);
    if (
      !claimedAt.has(keyOf(request.user_id, request.tool_id)) &&
      (await claim(request.user_id, request.tool_id)) !== node
    ) {
      return respond({ not_owner: true });
    }
    if (served.size >= SERVED_MAX) {
      return respond({
        error: `node ${node} is running ${SERVED_MAX} invokes for other nodes; try again`,
      });
    }
    const controller = new AbortController();
    served.set(request.id, controller);
    respond({ accepted: true });
    const beat = setInterval(() => send({ working: true }), WORKING_EVERY_MS);
    try {
      const executa = await options.prepare(
        request.tool_id,
        request.executa_version_id,
        controller.signal,
      );
      const outcome = await pool.invoke(request.user_id, executa, request.tool, request.args, {
        here: true,
        signal: controller.signal,
        ...(request.timeout_ms === undefined ? {} : { timeoutMs: request.timeout_ms }),
        ...(request.app === undefined ? {} : { app: request.app }),
      });
      send({ outcome: toWire(outcome) });
    } catch (err) {
      send({ error: `node ${node} could not run ${request.tool_id}: ${(err as Error).message}` });
    } finally {
      clearInterval(beat);
      served.delete(request.id);
    }
  }

  /** Never throws: it runs in a subscription callback, where a throw would stop the server. */
  function replyTo(respond: (data: Uint8Array) => boolean, reply: InvokeReply): void {
    try {
      let bytes = encoder.encode(JSON.stringify(reply));
      const max = nats.info?.max_payload ?? DEFAULT_MAX_PAYLOAD;
      if (bytes.length > max) {
        bytes = encoder.encode(
          JSON.stringify({
            error: `the tool's answer is ${bytes.length} bytes, more than the event bus carries between nodes (${max}); have the tool answer less (file transport)`,
          }),
        );
      }
      respond(bytes);
    } catch (err) {
      // The bus went away meanwhile: the caller's request times out or finds no responder.
      logger.log("warn", "could not answer another node's invoke", { error: String(err) });
    }
  }

  const placement: ExecutaPlacement = {
    get owned() {
      return new Set(claimedAt.keys());
    },
    async route(userId, executa, tool, args, opts) {
      const toolId = executa.spec.toolId;
      if (claimedAt.has(keyOf(userId, toolId))) return undefined;
      const resolved = executa as ResolvedExecuta;
      // Not one this server installed (a test's folder executa): nothing to forward by.
      if (typeof resolved.executaVersionId !== "number") return undefined;
      for (let attempt = 0; attempt < 3; attempt++) {
        const owner = await claim(userId, toolId);
        if (owner === node) return undefined;
        if (options.connected?.() === false) {
          return unavailable(
            `this plugin runs on node ${owner}, and the event bus that reaches it is reconnecting; try again in a moment`,
          );
        }
        const reply = await forward(owner, userId, resolved, tool, args, opts);
        if (reply === "no_responder") {
          if (await takeOver(userId, toolId, owner)) return undefined;
          continue;
        }
        if ("not_owner" in reply) continue;
        if ("error" in reply) return unavailable(reply.error);
        if ("outcome" in reply) return fromWire(reply.outcome);
        return unavailable(`node ${owner} answered the call with nothing this node understands`);
      }
      return unavailable(`the owner of ${toolId} for this user kept changing; try again`);
    },
    async start() {
      // Rows under this id are a previous life's: this process holds none of their processes.
      await db.deleteFrom("executa_owners").where("node", "=", node).execute();
      const subject = nodeInvokeSubject(options.subjectPrefix, node);
      subscriptions = [
        nats.subscribe(subject, {
          callback: (err, msg) => {
            if (err !== null) return;
            serve(msg).catch((e: unknown) => replyTo((d) => msg.respond(d), { error: String(e) }));
          },
        }),
        nats.subscribe(`${subject}.cancel`, {
          callback: (err, msg) => {
            if (err !== null) return;
            served.get(decoder.decode(msg.data))?.abort(new Error("cancelled by the caller"));
          },
        }),
      ];
      await nats.flush();
      timer = setInterval(() => {
        beating ??= placement
          .heartbeat()
          .catch((e: unknown) =>
            logger.log("warn", "plugin owner heartbeat failed; retrying on the next one", {
              error: String(e),
            }),
          )
          .finally(() => (beating = undefined));
      }, heartbeatMs);
      timer.unref();
    },
    async heartbeat() {
      // A pair whose process the pool let go (idle) is given up, so the rows stay as many as
      // the processes; a fresh claim waits for its process to start first.
      const at = now();
      for (const [key, claimed] of [...claimedAt]) {
        const [userId, toolId] = JSON.parse(key) as [string, string];
        if (pool.holds(userId, toolId) || at - claimed <= staleAfterMs) continue;
        claimedAt.delete(key);
        await db
          .deleteFrom("executa_owners")
          .where("user_id", "=", userId)
          .where("tool_id", "=", toolId)
          .where("node", "=", node)
          .execute();
      }
      const rows = await db
        .updateTable("executa_owners")
        .set({ heartbeat_at: now() })
        .where("node", "=", node)
        .returning(["user_id", "tool_id"])
        .execute();
      // A pair another node took over (this one stopped beating for a while) is no longer ours.
      const still = new Set(rows.map((r) => keyOf(r.user_id, r.tool_id)));
      for (const key of [...claimedAt.keys()]) if (!still.has(key)) claimedAt.delete(key);
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      for (const sub of subscriptions) sub.unsubscribe();
      for (const c of served.values()) c.abort(new Error("the server is stopping"));
      await beating;
      await db.deleteFrom("executa_owners").where("node", "=", node).execute();
      claimedAt.clear();
    },
  };
  return placement;
}

function toWire(outcome: InvokeOutcome): WireOutcome {
  if (outcome.ok || outcome.kind !== "rpc_error") return outcome;
  return { ...outcome, error: outcome.error.toJSON() };
}

function fromWire(outcome: WireOutcome): InvokeOutcome {
  if (outcome.ok || outcome.kind !== "rpc_error") return outcome;
  return { ...outcome, error: RpcError.fromObject(outcome.error) };
}

/** The outcome of an invoke no node could run: an RPC error the turn or window shows. */
function unavailable(message: string): InvokeOutcome {
  return {
    ok: false,
    kind: "rpc_error",
    // Retryable: the owner is restarting, or the bus reconnecting.
    error: new RpcError(HOST_ERRORS.PLUGIN_NOT_READY.code, message, {
      errorCode: HOST_ERRORS.PLUGIN_NOT_READY.errorCode,
    }),
    durationMs: 0,
  };
}

/** An inbox's messages in order; `next(ms)` is the next one, or undefined after `ms` of silence. */
function inboxQueue(nats: NatsConnection, inbox: string) {
  const queued: Msg[] = [];
  let wake: (() => void) | undefined;
  const sub = nats.subscribe(inbox, {
    callback: (err, msg) => {
      if (err === null) queued.push(msg);
      wake?.();
    },
  });
  return {
    async next(ms: number): Promise<Msg | undefined> {
      if (queued.length === 0) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, Math.max(0, ms));
        });
        clearTimeout(timer);
        wake = undefined;
      }
      return queued.shift();
    },
    close: () => sub.unsubscribe(),
  };
}
