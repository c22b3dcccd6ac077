// Reading the answers of mock-answer lines: an `error` line becomes the wire error as written
// (every offline mock service), and an `events` line becomes the text its frames carry (the
// model-side services: sampling, embeddings).
import { findByCode } from "@anna-ai/app-schema/errors";
import type { ErrorFamily } from "@anna-ai/app-schema/errors";
import { RpcError } from "@anna-ai/jsonrpc";
import type { MockError } from "./mock-fixture.js";

/** `data.errorCode` for a fixture error whose code the family's catalog does not know. */
export const MOCK_ERROR_CODE = "MOCK_ERROR";

/**
 * The fixture's code and message as written; `data.errorCode` is kept when the line sets one,
 * else taken from the family's catalog, else `MOCK_ERROR` (H12: it is always set).
 */
export function fixtureRpcError(error: MockError, family: ErrorFamily): RpcError {
  const { code, message, data } = error;
  const extra: Record<string, unknown> =
    data !== null && typeof data === "object" && !Array.isArray(data)
      ? { ...(data as Record<string, unknown>) }
      : data === undefined
        ? {}
        : { detail: data };
  const errorCode =
    typeof extra["errorCode"] === "string"
      ? extra["errorCode"]
      : (findByCode(family, code)?.errorCode ?? MOCK_ERROR_CODE);
  return new RpcError(code, message, { ...extra, errorCode });
}

/**
 * The text of a stream of events, concatenated in order. Each event is a string or an object
 * (optionally under `payload`, the spec's `{"payload":{"event":"token","text":"hi"}}`) whose
 * text is in `text`, `delta`, `token`, `content` (a string) or `content.text`. Events without
 * text (`run_meta`, `done`) add nothing.
 */
export function eventsText(events: readonly unknown[]): string {
  let out = "";
  for (const event of events) {
    const body =
      event !== null && typeof event === "object" && "payload" in event
        ? (event as { payload: unknown }).payload
        : event;
    out += textOf(body);
  }
  return out;
}

function textOf(body: unknown): string {
  if (typeof body === "string") return body;
  if (body === null || typeof body !== "object") return "";
  const b = body as Record<string, unknown>;
  for (const key of ["text", "delta", "token"]) {
    if (typeof b[key] === "string") return b[key];
  }
  const content = b["content"];
  if (typeof content === "string") return content;
  if (content !== null && typeof content === "object") {
    const text = (content as Record<string, unknown>)["text"];
    if (typeof text === "string") return text;
  }
  return "";
}
