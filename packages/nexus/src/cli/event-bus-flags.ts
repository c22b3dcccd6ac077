// `start`'s event bus: with --event-bus (or EVENT_BUS) the window events of every node travel
// over NATS; without it they stay in this process, as on one node. Parsed before anything opens,
// so a bad value is a one-line usage error, not a half-started server.
import { checkSubjectPrefix, DEFAULT_EVENT_SUBJECT_PREFIX } from "../bus/event-bus-subject.js";
import { EventBusConfigError, type NatsTarget, parseEventBusUrl } from "../bus/event-bus-url.js";
import type { Flags, FlagValues } from "./args.js";
import { usageError } from "./exit.js";

export const EVENT_BUS_FLAGS: Flags = {
  "event-bus": {
    type: "string",
    value: "<url>",
    description:
      "share window events between nodes over NATS: nats://host:port, comma-separated for a NATS cluster (env EVENT_BUS; default: in process, for one node)",
  },
  "event-bus-prefix": {
    type: "string",
    value: "<subject>",
    description: `the NATS subject prefix; nodes of one cluster must agree on it (env ANNA_EVENT_BUS_PREFIX; default ${DEFAULT_EVENT_SUBJECT_PREFIX})`,
  },
};

export interface EventBusConfig {
  target: NatsTarget;
  subjectPrefix: string;
}

export function eventBusFrom(
  flags: FlagValues,
  env: NodeJS.ProcessEnv,
): EventBusConfig | undefined {
  const url = (flags["event-bus"] as string | undefined) ?? (env.EVENT_BUS || undefined);
  const prefix =
    (flags["event-bus-prefix"] as string | undefined) ?? (env.ANNA_EVENT_BUS_PREFIX || undefined);
  if (url === undefined) {
    if (prefix !== undefined) throw usageError("--event-bus-prefix needs --event-bus", "start");
    return undefined;
  }
  try {
    return {
      target: parseEventBusUrl(url),
      subjectPrefix: checkSubjectPrefix(prefix ?? DEFAULT_EVENT_SUBJECT_PREFIX),
    };
  } catch (err) {
    if (err instanceof EventBusConfigError) throw usageError(err.message, "start");
    throw err;
  }
}
