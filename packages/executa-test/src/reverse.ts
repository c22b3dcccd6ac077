// Answering the plugin's reverse requests (sampling, storage, …): the handler types the client
// takes, and a host with no services for runs that only need an answer.

import { refuseReverseRequest } from "@anna-ai/executa-host";
import type { Frame, JsonObject } from "./frame.js";

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** The answer to a reverse request: a result or an error, never both. */
export type ReverseAnswer = { result: unknown; error?: undefined } | { error: RpcErrorObject };

/** Answers one reverse method; throwing answers -32603 with the message. */
export type MethodHandler = (
  params: JsonObject,
  frame: Frame,
) => ReverseAnswer | Promise<ReverseAnswer>;

/** Answers any reverse request; `undefined` leaves the frame for `nextReverse`. */
export type ReverseHandler = (
  method: string,
  params: JsonObject,
  frame: Frame,
) => ReverseAnswer | undefined | Promise<ReverseAnswer | undefined>;

/**
 * Every reverse request refused with the error the real host sends when no router is attached
 * (a family's "not negotiated" / "not granted" code, else -32601), so a tool that calls sampling
 * or storage in a contract run gets an answer instead of waiting forever.
 */
export function refusingHost(pluginLabel = "the plugin under test"): ReverseHandler {
  return (method) => {
    const refusal = refuseReverseRequest(method, pluginLabel);
    return {
      error: {
        code: refusal.code,
        message: refusal.message,
        ...(refusal.data === undefined ? {} : { data: refusal.data }),
      },
    };
  };
}
