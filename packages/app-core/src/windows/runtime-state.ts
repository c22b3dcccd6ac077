import { HostApiError } from "../errors/host-api-error.js";

/** `MAX_RUNTIME_STATE_BYTES` (R129): 256 KiB of UTF-8 JSON (Z10 reads "256 KB" as KiB). */
export const MAX_RUNTIME_STATE_BYTES = 256 * 1024;

export function runtimeStateBytes(state: Record<string, unknown>): number {
  return Buffer.byteLength(JSON.stringify(state), "utf8");
}

/** Throws `state_too_large` when the serialised state would exceed the cap. */
export function assertStateFits(
  state: Record<string, unknown>,
  capBytes = MAX_RUNTIME_STATE_BYTES,
): number {
  const bytes = runtimeStateBytes(state);
  if (bytes > capBytes) {
    throw new HostApiError(
      "state_too_large",
      `runtime_state would be ${bytes} bytes; the limit is ${capBytes} bytes — keep large data in files.* and store a handle`,
      { size_bytes: bytes, max_bytes: capBytes },
    );
  }
  return bytes;
}

/**
 * `state_merge` (R93): `last_writer_wins` — a patch is merged shallowly over the current state
 * (U27). It is the only policy the spec defines; an unknown one is treated the same way.
 */
export function mergeRuntimeState(
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
  _policy: string = "last_writer_wins",
): Record<string, unknown> {
  return { ...current, ...patch };
}
