import type { Recording } from "@anna-ai/app-schema";
import {
  type EventHandler,
  type EventHub,
  mapWireEvent,
  type StreamRouter,
} from "@anna-ai/app-runtime";

/** One event the harness delivered, in delivery order (what `drainEvents()` hands back). */
export interface HarnessEvent {
  name: string;
  payload: unknown;
}

/**
 * `harness.events` (L7736, L7754–L7761): `emit(name, payload)` simulates a server or page event
 * and fires every `runtime.on(name, …)` subscriber; `on(name, fn)` subscribes like the bundle.
 * Names are the SDK's (`entry_payload`, `auth.refresh`, `runtime_state_synced`, …);
 * `emitWire(event)` takes a wire `AnnaAppEvent` and maps it the way the SDK does.
 * `rpc.stream` frames also feed the streams `llm.stream` / `agent.session.run` opened, as in
 * the SDK.
 */
export class HarnessEvents {
  readonly #hub: EventHub;
  readonly #windowUuid: string;
  readonly #router: StreamRouter;
  readonly #delivered: HarnessEvent[] = [];

  constructor(hub: EventHub, router: StreamRouter, windowUuid: string) {
    this.#hub = hub;
    this.#router = router;
    this.#windowUuid = windowUuid;
  }

  emit(name: string, payload?: unknown): void {
    this.#delivered.push({ name, payload });
    if (name === "rpc.stream") this.#router.route(payload);
    this.#hub.emit(name, payload);
  }

  /** A wire event (`{kind, payload, window_uuid?}`); dropped as the SDK drops it. */
  emitWire(event: Record<string, unknown>): boolean {
    const mapped = mapWireEvent(event, this.#windowUuid);
    if (mapped === undefined) return false;
    this.#delivered.push({ name: mapped.name, payload: mapped.payload });
    if (mapped.name === "rpc.stream") this.#router.route(mapped.payload);
    this.#hub.emit(mapped.name, mapped.payload, mapped.wire);
    return true;
  }

  on(name: string, handler: EventHandler): () => void {
    return this.#hub.on(name, handler);
  }

  /**
   * Emits every event of a recording (`readRecording`) in order — ours, the upstream harness's
   * (`event` key) or the guide's `dir: in` lines alike; calls are not replayed, the bundle
   * makes its own. Returns how many were emitted.
   */
  replay(recording: Pick<Recording, "events">): number {
    for (const event of recording.events) this.emit(event.name, event.payload);
    return recording.events.length;
  }

  /** Every event delivered since the last drain, oldest first; empties the buffer. */
  drain(): HarnessEvent[] {
    return this.#delivered.splice(0);
  }
}
