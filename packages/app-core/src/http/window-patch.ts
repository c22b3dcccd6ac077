// The body of `PATCH /api/v1/anna-apps/runtime/windows/{wid}` (U27, L5993, L6014):
// what the dashboard's frames send when they are moved, resized, minimised, restored, retitled
// or focused. Parsed here, at the HTTP boundary, so the dispatcher only sees a typed patch; the
// dispatcher's own refusals (a closed window, a transition the state machine forbids, an
// oversized runtime_state) become HTTP statuses instead of a 500.
import { WindowGeometrySchema } from "@anna-ai/app-schema";
import { isHostApiError, WINDOW_STATUSES, type WindowPatch } from "../index.js";
import { HttpError } from "./http-error.js";
import { isJsonObject } from "./read-json-body.js";

export interface ParsedWindowPatch {
  patch: WindowPatch;
  /** Bring the window to front (`window_focus_changed`); a harness addition, not in U27. */
  focus: boolean;
}

const KEYS = ["geometry", "status", "title", "runtime_state_patch", "focus"] as const;

function bad(message: string): HttpError {
  return new HttpError("invalid_arg", message);
}

export function parseWindowPatch(body: unknown): ParsedWindowPatch {
  if (!isJsonObject(body)) throw bad("the PATCH body must be a JSON object");
  const unknown = Object.keys(body).filter((key) => !(KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw bad(`unknown PATCH field ${unknown.join(", ")}; the fields are ${KEYS.join(", ")}`);
  }
  const patch: WindowPatch = {};
  if (body.geometry !== undefined) {
    const geometry = WindowGeometrySchema.safeParse(body.geometry);
    if (!geometry.success || !isJsonObject(body.geometry)) {
      throw bad("geometry must be an object of numbers {x, y, w, h, monitor_w, monitor_h}");
    }
    patch.geometry = geometry.data;
  }
  if (body.status !== undefined) {
    if (!(WINDOW_STATUSES as readonly unknown[]).includes(body.status)) {
      throw bad(
        `status ${JSON.stringify(body.status)} is not one of ${WINDOW_STATUSES.join(", ")}`,
      );
    }
    patch.status = body.status as NonNullable<WindowPatch["status"]>;
  }
  if (body.title !== undefined) {
    if (typeof body.title !== "string") throw bad("title must be a string");
    patch.title = body.title;
  }
  if (body.runtime_state_patch !== undefined) {
    if (!isJsonObject(body.runtime_state_patch)) {
      throw bad("runtime_state_patch must be a JSON object (shallow-merged into runtime_state)");
    }
    patch.runtime_state_patch = body.runtime_state_patch;
  }
  if (body.focus !== undefined && typeof body.focus !== "boolean") {
    throw bad("focus must be true or false");
  }
  const focus = body.focus === true;
  if (Object.keys(patch).length === 0 && !focus) {
    throw bad(`nothing to patch: send at least one of ${KEYS.join(", ")}`);
  }
  return { patch, focus };
}

/** Runs a windows REST action; a HostApiError it throws becomes an HttpError with its code. */
export async function windowsRest<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!isHostApiError(error)) throw error;
    throw new HttpError(error.code, error.message, { cause: error });
  }
}
