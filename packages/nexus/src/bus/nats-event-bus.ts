// app-core's EventBus across Nexus nodes, on NATS core pub/sub. An event is delivered to this
// node's listeners at once (in process) and published on its user's subject for the other nodes;
// the connection is opened with `noEcho`, so the server never hands a node its own events back
// and each listener sees each event once. A node holds one NATS subscription per user that has
// a listener here, and drops it with the last listener, so a user's events travel only to the
// nodes that serve that user's event streams.
//
// Core NATS is at-most-once: an event published while this node is cut off from the server
// reaches this node's listeners only here (it is counted and logged, never queued without
// bound). Each event carries its number in the user's event log (header `Anna-Event-Seq`,
// runtime/sql-event-log.ts), so a stream that sees a number jump, or is told the bus is back
// (`onReconnect`), reads what it missed from the database (app-core's event-feed.ts).
import { hostname } from "node:os";
import {
  createEventBus,
  type EventBus,
  type EventFilter,
  type EventListener,
  streamEvents,
} from "@anna-ai/app-core";
import { type AnnaAppEvent, parseAnnaAppEvent } from "@anna-ai/app-schema";
import {
  connect,
  headers,
  type Msg,
  type NatsConnection,
  type Status,
  type Subscription,
} from "@nats-io/transport-node";
import type { Logger } from "../core/logger.js";
import { runtimeLogger } from "../runtime/nexus-runtime.js";
import {
  checkSubjectPrefix,
  DEFAULT_EVENT_SUBJECT_PREFIX,
  userSubject,
} from "./event-bus-subject.js";
import type { NatsTarget } from "./event-bus-url.js";

/** How long the first connection may take before start gives up. */
export const EVENT_BUS_CONNECT_TIMEOUT_MS = 5_000;
/** close() waits this long for the drain (pending publishes flushed) before cutting the socket. */
export const EVENT_BUS_DRAIN_TIMEOUT_MS = 2_000;
/**
 * A server that vanished without closing the socket (a partition) is noticed after two missed
 * pings; nats.js's default of 2 minutes would leave publishes queueing for up to 4.
 */
const PING_INTERVAL_MS = 20_000;
/** The NATS header that carries an event's number in its user's event log. */
export const EVENT_SEQ_HEADER = "Anna-Event-Seq";
/** The server's default max_payload, used until its INFO says otherwise. */
const DEFAULT_MAX_PAYLOAD_BYTES = 1024 * 1024;

export interface ReconnectBackoff {
  /** The wait before the first redial after a disconnect. */
  initialDelayMs: number;
  /** The longest wait between redials; retries never stop. */
  maxDelayMs: number;
}

export const DEFAULT_RECONNECT_BACKOFF: ReconnectBackoff = {
  initialDelayMs: 250,
  maxDelayMs: 5_000,
};

export interface NatsEventBusOptions {
  target: NatsTarget;
  /** Subjects are `<prefix>.<user token>`; nodes of one cluster must agree on it. */
  subjectPrefix?: string;
  logger: Logger;
  /** The client name the server's monitoring shows (default `anna-nexus <host> <pid>`). */
  name?: string;
  connectTimeoutMs?: number;
  reconnect?: ReconnectBackoff;
}

/** `ok`: connected; `reconnecting`: the connection is lost and being redialled; `closed`. */
export type EventBusState = "ok" | "reconnecting" | "closed";

/** Why an event did not go out to the other nodes (it still reached this node's listeners). */
export type EventBusDropReason = "disconnected" | "too_large" | "unencodable" | "publish_failed";

export interface EventBusStats {
  published: number;
  received: number;
  /** Messages from the bus that were not a valid event (dropped, logged). */
  malformed: number;
  dropped: Record<EventBusDropReason, number>;
  /** NATS subscriptions held: one per user with a listener on this node. */
  subscriptions: number;
}

export interface EventBusHandle {
  bus: EventBus;
  /** The NATS connection, for the other cross-node traffic (invokes sent to a plugin's owner). */
  connection: NatsConnection;
  /** The subject prefix the events use; other traffic goes under it too. */
  subjectPrefix: string;
  state(): EventBusState;
  /** The servers, without credentials. */
  description: string;
  stats(): EventBusStats;
  /**
   * Resolves once the server has processed everything this node sent before (publishes,
   * subscribes, unsubscribes): a round trip, for tests and orderly handovers.
   */
  flush(): Promise<void>;
  /** Drains (pending publishes go out), then closes. Listeners still get local events after. */
  close(): Promise<void>;
}

export class EventBusConnectError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EventBusConnectError";
  }
}

interface UserSubscription {
  listeners: number;
  sub: Subscription | undefined;
}

/** Connects (rejecting with EventBusConnectError when the first connection fails) and returns the bus. */
export async function createNatsEventBus(options: NatsEventBusOptions): Promise<EventBusHandle> {
  const { target, logger } = options;
  const prefix = checkSubjectPrefix(options.subjectPrefix ?? DEFAULT_EVENT_SUBJECT_PREFIX);
  const backoff = options.reconnect ?? DEFAULT_RECONNECT_BACKOFF;
  let disconnectedAt: number | undefined;
  // Fixed for one outage so the delay stays stable between nats.js's checks; differs between
  // nodes so they do not redial in step.
  let jitter = 1;
  let nc: NatsConnection;
  try {
    nc = await connect({
      servers: target.servers,
      ...target.auth,
      name: options.name ?? `anna-nexus ${hostname()} ${process.pid}`,
      noEcho: true,
      timeout: options.connectTimeoutMs ?? EVENT_BUS_CONNECT_TIMEOUT_MS,
      reconnect: true,
      maxReconnectAttempts: -1,
      pingInterval: PING_INTERVAL_MS,
      maxPingOut: 2,
      // nats.js asks for the wait on every pass of its dial loop, not once per dial, so the
      // delay is a function of the time since the disconnect: redial when that time has grown
      // by half again, i.e. the gaps double, from initialDelayMs up to maxDelayMs.
      reconnectDelayHandler: () => {
        const down = disconnectedAt === undefined ? 0 : Date.now() - disconnectedAt;
        return Math.min(backoff.maxDelayMs, Math.max(backoff.initialDelayMs, down / 2) * jitter);
      },
    });
  } catch (err) {
    throw new EventBusConnectError(
      `event bus unavailable: cannot connect to ${target.description}: ${(err as Error).message} (start NATS there, or point --event-bus / EVENT_BUS at a running server)`,
      { cause: err },
    );
  }

  const local = createEventBus({ logger: runtimeLogger(logger) });
  const byUser = new Map<string, UserSubscription>();
  const stats: Omit<EventBusStats, "subscriptions"> = {
    published: 0,
    received: 0,
    malformed: 0,
    dropped: { disconnected: 0, too_large: 0, unencodable: 0, publish_failed: 0 },
  };
  let connected = true;
  let closed = false;
  const reconnectListeners = new Set<() => void>();
  let droppedThisOutage = 0;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  function onStatus(s: Status): void {
    switch (s.type) {
      case "disconnect":
        connected = false;
        disconnectedAt = Date.now();
        jitter = 0.8 + Math.random() * 0.4;
        droppedThisOutage = 0;
        logger.log("warn", "event bus disconnected; reconnecting", { server: s.server });
        break;
      case "reconnect":
        connected = true;
        logger.log("info", "event bus reconnected", {
          server: s.server,
          down_ms: disconnectedAt === undefined ? null : Date.now() - disconnectedAt,
          events_not_sent: droppedThisOutage,
        });
        disconnectedAt = undefined;
        // nats.js has resubscribed by now; the streams read back what they missed.
        for (const listener of [...reconnectListeners]) {
          try {
            listener();
          } catch (error) {
            logger.log("error", "event bus reconnect listener threw", { error: String(error) });
          }
        }
        break;
      case "error":
        logger.log("warn", "event bus error", { error: s.error.message });
        break;
      case "staleConnection":
        logger.log("warn", "event bus connection is stale; reconnecting", {});
        break;
      case "slowConsumer":
        logger.log("warn", "event bus subscription is behind", { pending: s.pending });
        break;
      case "ldm":
        logger.log("info", "event bus server is going away (lame duck); will move", {
          server: s.server,
        });
        break;
      default:
        break;
    }
  }
  void (async () => {
    for await (const s of nc.status()) onStatus(s);
  })().catch((err: unknown) => {
    logger.log("error", "event bus status watch ended", { error: String(err) });
  });

  function drop(reason: EventBusDropReason): void {
    stats.dropped[reason] += 1;
  }

  function deliver(userId: string, err: Error | null, msg: Msg): void {
    if (err !== null) {
      logger.log("warn", "event bus subscription error", { error: err.message });
      return;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(decoder.decode(msg.data));
    } catch (error) {
      stats.malformed += 1;
      logger.log("warn", "event bus message is not JSON; dropped", {
        subject: msg.subject,
        error: String(error),
      });
      return;
    }
    const parsed = parseAnnaAppEvent(raw);
    if (!parsed.ok) {
      stats.malformed += 1;
      logger.log("warn", "event bus message is not an app event; dropped", {
        subject: msg.subject,
        reason: parsed.reason,
      });
      return;
    }
    stats.received += 1;
    // A kind this build does not know (a newer node during a rolling upgrade) is passed on as
    // the in-process bus would: the window decides.
    local.publish(userId, parsed.event, seqOf(msg));
  }

  function seqOf(msg: Msg): number | undefined {
    const raw = msg.headers?.get(EVENT_SEQ_HEADER);
    if (raw === undefined || raw === "") return undefined;
    const seq = Number(raw);
    return Number.isSafeInteger(seq) && seq > 0 ? seq : undefined;
  }

  function hold(userId: string): void {
    const entry = byUser.get(userId);
    if (entry !== undefined) {
      entry.listeners += 1;
      return;
    }
    let sub: Subscription | undefined;
    if (!closed) {
      try {
        sub = nc.subscribe(userSubject(prefix, userId), {
          callback: (err, msg) => deliver(userId, err, msg),
        });
      } catch (err) {
        logger.log("error", "event bus subscribe failed; this listener gets local events only", {
          error: (err as Error).message,
        });
      }
    }
    byUser.set(userId, { listeners: 1, sub });
  }

  function release(userId: string): void {
    const entry = byUser.get(userId);
    if (entry === undefined) return;
    entry.listeners -= 1;
    if (entry.listeners > 0) return;
    byUser.delete(userId);
    try {
      entry.sub?.unsubscribe();
    } catch (err) {
      logger.log("warn", "event bus unsubscribe failed", { error: (err as Error).message });
    }
  }

  function subscribe(filter: EventFilter, listener: EventListener): () => void {
    const unsubscribeLocal = local.subscribe(filter, listener);
    hold(filter.userId);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      unsubscribeLocal();
      release(filter.userId);
    };
  }

  function publish(userId: string, event: AnnaAppEvent, seq?: number): void {
    local.publish(userId, event, seq);
    if (closed) return;
    if (!connected) {
      if (droppedThisOutage === 0) {
        logger.log("warn", "event bus down; events reach this node's listeners only", {
          kind: event.kind,
        });
      }
      droppedThisOutage += 1;
      drop("disconnected");
      return;
    }
    let data: Uint8Array;
    try {
      data = encoder.encode(JSON.stringify(event));
    } catch (err) {
      drop("unencodable");
      logger.log("error", "event cannot be encoded for the event bus; other nodes miss it", {
        kind: event.kind,
        error: String(err),
      });
      return;
    }
    const max = nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD_BYTES;
    if (data.byteLength > max) {
      drop("too_large");
      logger.log("error", "event is larger than the event bus takes; other nodes miss it", {
        kind: event.kind,
        app_id: String(event.app_id),
        bytes: data.byteLength,
        max_payload_bytes: max,
      });
      return;
    }
    try {
      if (seq === undefined) {
        nc.publish(userSubject(prefix, userId), data);
      } else {
        const h = headers();
        h.set(EVENT_SEQ_HEADER, String(seq));
        nc.publish(userSubject(prefix, userId), data, { headers: h });
      }
      stats.published += 1;
    } catch (err) {
      drop("publish_failed");
      logger.log("error", "event bus publish failed; other nodes miss this event", {
        kind: event.kind,
        error: (err as Error).message,
      });
    }
  }

  const bus: EventBus = {
    publish,
    subscribe,
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    stream: (filter, streamOptions) =>
      streamEvents(subscribe, filter, streamOptions, runtimeLogger(logger)),
  };

  return {
    bus,
    connection: nc,
    subjectPrefix: prefix,
    description: target.description,
    state: () => (closed || nc.isClosed() ? "closed" : connected ? "ok" : "reconnecting"),
    stats: () => ({
      ...stats,
      dropped: { ...stats.dropped },
      subscriptions: [...byUser.values()].filter((e) => e.sub !== undefined).length,
    }),
    flush: () => nc.flush(),
    async close() {
      if (closed) return;
      closed = true;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), EVENT_BUS_DRAIN_TIMEOUT_MS);
      });
      const drained = await Promise.race([nc.drain().then(() => "drained" as const), timeout])
        .catch((err: unknown) => {
          logger.log("warn", "event bus drain failed; closing", { error: String(err) });
          return "failed" as const;
        })
        .finally(() => clearTimeout(timer));
      if (drained !== "drained") await nc.close();
    },
  };
}
