// What /metrics shows of the NATS event bus: whether it is connected, the users it holds a
// subscription for, and the events it sent, received and could not send to the other nodes.
import type { MetricFamily } from "../ops/prometheus-text.js";
import type { EventBusDropReason, EventBusHandle } from "./nats-event-bus.js";

export function eventBusFamilies(bus: Pick<EventBusHandle, "state" | "stats">): MetricFamily[] {
  const s = bus.stats();
  return [
    {
      name: "anna_event_bus_connected",
      help: "1 while this node is connected to the NATS event bus, 0 while it reconnects.",
      type: "gauge",
      samples: [{ value: bus.state() === "ok" ? 1 : 0 }],
    },
    {
      name: "anna_event_bus_subscriptions",
      help: "NATS subscriptions this node holds: one per user with an event listener here.",
      type: "gauge",
      samples: [{ value: s.subscriptions }],
    },
    {
      name: "anna_event_bus_events_published_total",
      help: "Window events this node sent to the other nodes.",
      type: "counter",
      samples: [{ value: s.published }],
    },
    {
      name: "anna_event_bus_events_received_total",
      help: "Window events this node received from the other nodes.",
      type: "counter",
      samples: [{ value: s.received }],
    },
    {
      name: "anna_event_bus_events_dropped_total",
      help: "Window events that reached only this node's listeners, by why they were not sent.",
      type: "counter",
      samples: (Object.entries(s.dropped) as [EventBusDropReason, number][]).map(([reason, n]) => ({
        labels: { reason },
        value: n,
      })),
    },
    {
      name: "anna_event_bus_messages_malformed_total",
      help: "Messages on the event bus subjects that were not window events (dropped).",
      type: "counter",
      samples: [{ value: s.malformed }],
    },
  ];
}
