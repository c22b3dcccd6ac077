import { HostApiError } from "../errors/host-api-error.js";

/**
 * `AnnaAppWindowStatus` (L5949–L5982, U24). `closed` and `crashed` are terminal: the diagram's
 * `crashed → active` arrow is read as "the LLM may open a new window" (inventory Z18,
 * D-core-8).
 */
export const WINDOW_STATUSES = Object.freeze(["active", "minimized", "closed", "crashed"] as const);
export type WindowStatus = (typeof WINDOW_STATUSES)[number];

const TRANSITIONS: Readonly<Record<WindowStatus, readonly WindowStatus[]>> = {
  active: ["minimized", "closed", "crashed"],
  // Restoring from the dock is implied by the dock UI though not drawn (Z18).
  minimized: ["active", "closed"],
  closed: [],
  crashed: [],
};

export function isWindowStatus(value: unknown): value is WindowStatus {
  return typeof value === "string" && (WINDOW_STATUSES as readonly string[]).includes(value);
}

/** Live windows are hydrated, heartbeated and deduplicated; terminal ones never come back. */
export function isLiveStatus(status: WindowStatus): boolean {
  return status === "active" || status === "minimized";
}

export function canTransition(from: WindowStatus, to: WindowStatus): boolean {
  return from === to || TRANSITIONS[from].includes(to);
}

/** Throws `invalid_arg` for a move the state machine does not allow. */
export function assertTransition(from: WindowStatus, to: WindowStatus): void {
  if (!canTransition(from, to)) {
    throw new HostApiError("invalid_arg", `a ${from} window cannot become ${to}`, { from, to });
  }
}
