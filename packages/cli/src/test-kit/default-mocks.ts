import { HostApiError } from "@anna-ai/app-runtime";

/** What a mock receives and may answer: the wire args; any value (or a promise of one). */
export type MockHandler = (args: any, call: { ns: string; method: string }) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Thrown by a default to say "no default here": the harness records the call as denied. */
export const NO_DEFAULT = Symbol("no-default");

/**
 * The answers for unmocked methods (L7763–L7771): `window.*` answers `{ok: true}` (the shapes
 * the dispatcher documents where a test would read them), `storage.*` works on an in-memory
 * `Map` with the shapes of `anna-app dev`'s default `legacy` backend (docs/app-core.md) and no
 * size cap; everything else has no default.
 */
export function createDefaults(windowUuid: string): {
  answer(ns: string, method: string, args: Record<string, unknown>): unknown;
  storage: Map<string, unknown>;
} {
  const storage = new Map<string, unknown>();
  const answer = (ns: string, method: string, args: Record<string, unknown>): unknown => {
    if (ns === "window") return windowDefault(method, args, windowUuid);
    if (ns === "storage") return storageDefault(storage, method, args);
    return NO_DEFAULT;
  };
  return { answer, storage };
}

function windowDefault(method: string, args: Record<string, unknown>, windowUuid: string): unknown {
  switch (method) {
    case "resize":
      return { ok: true, w: args["w"], h: args["h"] };
    case "open_view":
      return { ok: true, window_uuid: windowUuid };
    default:
      return { ok: true };
  }
}

function requireKey(args: Record<string, unknown>): string {
  const key = args["key"];
  // The dispatcher's message for the same mistake (R131).
  if (typeof key !== "string" || key === "") throw new HostApiError("invalid_arg", "key required");
  return key;
}

function storageDefault(
  storage: Map<string, unknown>,
  method: string,
  args: Record<string, unknown>,
): unknown {
  switch (method) {
    case "get": {
      const key = requireKey(args);
      return storage.has(key)
        ? { value: structuredClone(storage.get(key)), exists: true }
        : { value: null, exists: false };
    }
    case "set": {
      // Stored as a JSON copy: a later mutation of the caller's object must not change it.
      storage.set(requireKey(args), structuredClone(args["value"] ?? null));
      return { ok: true };
    }
    case "delete":
      storage.delete(requireKey(args));
      return { ok: true, deleted: true };
    case "list": {
      const prefix = typeof args["prefix"] === "string" ? args["prefix"] : "";
      const items = [...storage.keys()]
        .filter((key) => key.startsWith(prefix))
        .sort()
        .map((key) => ({ key, value: storage.get(key) }));
      return { items, next_cursor: null };
    }
    default:
      return NO_DEFAULT;
  }
}
