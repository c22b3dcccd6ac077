// The readiness checks `anna-nexus start` adds to the database and blob store probes.
import type { Sandbox } from "@anna-ai/agent";
import type { Kysely } from "kysely";
import type { EventBusHandle } from "../bus/nats-event-bus.js";
import { schemaStatus } from "../db/schema-status.js";
import type { ReadinessCheck } from "../http/context.js";

/**
 * `ok` when the schema is exactly what this build carries, `pending` when migrations are
 * missing (not ready: this build's queries need them), `newer` when a newer Nexus migrated the
 * database after this node started. `newer` still counts as ready: migrations are additive, and
 * during a rolling upgrade the old nodes keep serving until the new ones are up.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- reads only the migration table.
export function migrationsCheck(db: Kysely<any>): ReadinessCheck {
  return {
    name: "migrations",
    required: true,
    alsoReady: ["newer"],
    probe: async () => {
      const s = await schemaStatus(db);
      return s.unknown.length > 0 ? "newer" : s.pending.length > 0 ? "pending" : "ok";
    },
  };
}

/**
 * What plugins run under: `ok` (bwrap), `off` (the operator's opt-out), `trusted_only`, or
 * `unusable` (bwrap asked for and not usable: plugins are refused). Reported, not required: it
 * is this node's configuration, which a restart does not change, and a node without plugins
 * still serves everything else.
 */
export function sandboxCheck(sandbox: Sandbox): ReadinessCheck {
  return {
    name: "sandbox",
    required: false,
    probe: () => {
      if (sandbox.options.mode === "none") {
        return Promise.resolve(sandbox.options.allowUnsandboxed === true ? "off" : "trusted_only");
      }
      return Promise.resolve(sandbox.probe().usable ? "ok" : "unusable");
    },
  };
}

/**
 * The NATS event bus: `ok` (connected), `reconnecting`, `closed`. Reported, not required: NATS
 * is shared by every node, so a NATS outage would take them all out of the balancer at once,
 * while each still serves everything but the fan-out of window events to other nodes.
 */
export function eventBusCheck(bus: Pick<EventBusHandle, "state">): ReadinessCheck {
  return { name: "event_bus", required: false, probe: () => Promise.resolve(bus.state()) };
}
