// Fixture answers shared by the offline agent, image and upload services: a line's `error`
// becomes the wire error exactly as written, with `data.errorCode` from the family's catalog when
// the line has none (H12).
import { findByCode } from "@anna-ai/app-schema/errors";
import { RpcError } from "@anna-ai/jsonrpc";
import type { MockEntry } from "./mock-fixture.js";

export function fixtureError(entry: MockEntry, family: "agent" | "image" | "upload"): RpcError {
  const { code, message, data } = entry.error ?? { code: -32603, message: "mock error" };
  const extra =
    data !== null && typeof data === "object" && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : data === undefined
        ? {}
        : { detail: data };
  const errorCode =
    typeof extra["errorCode"] === "string"
      ? extra["errorCode"]
      : (findByCode(family, code)?.errorCode ?? "MOCK_ERROR");
  return new RpcError(code, message, { ...extra, errorCode });
}

/** A fresh copy of a line's `result` (a caller mutating one answer must not change the next). */
export function fixtureResult(entry: MockEntry): unknown {
  return structuredClone(entry.result);
}
