// Fixture answers shared by the offline agent, image and upload services: a line's `error`
// becomes the wire error exactly as written, with `data.errorCode` from the family's catalog when
// the line has none (H12).
import { PROTOCOL_ERRORS } from "@anna-ai/app-schema/errors";
import type { RpcError } from "@anna-ai/jsonrpc";
import type { MockEntry } from "./mock-fixture.js";
import { fixtureRpcError } from "./sampling-fixture.js";

export function fixtureError(entry: MockEntry, family: "agent" | "image" | "upload"): RpcError {
  return fixtureRpcError(
    entry.error ?? { code: PROTOCOL_ERRORS.INTERNAL_ERROR.code, message: "mock error" },
    family,
  );
}

/** A fresh copy of a line's `result` (a caller mutating one answer must not change the next). */
export function fixtureResult(entry: MockEntry): unknown {
  return structuredClone(entry.result);
}
