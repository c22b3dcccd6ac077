// Wire errors and local errors are different things: an RpcError crossed (or will cross) the
// connection as a JSON-RPC `error` object; an RpcLocalError describes what happened on this side
// (timeout, abort, closed pipe, a frame we could not read) and is never sent.

// The two-module protocol table only: plugins load this package at spawn time.
import { PROTOCOL_ERRORS } from "@anna-ai/app-schema/errors/protocol";
import type { JsonRpcErrorObject } from "./types.js";

/** Standard JSON-RPC 2.0 codes used by the peer itself (L989–L1011, T9), from the catalog. */
export const PARSE_ERROR = PROTOCOL_ERRORS.PARSE_ERROR.code;
export const INVALID_REQUEST = PROTOCOL_ERRORS.INVALID_REQUEST.code;
export const METHOD_NOT_FOUND = PROTOCOL_ERRORS.METHOD_NOT_FOUND.code;
export const INVALID_PARAMS = PROTOCOL_ERRORS.INVALID_PARAMS.code;
export const INTERNAL_ERROR = PROTOCOL_ERRORS.INTERNAL_ERROR.code;

/** A JSON-RPC error object, received from or to be sent to the other side. */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }

  /** The platform's symbolic code (`data.errorCode`, H12), when the error carries one. */
  get errorCode(): string | undefined {
    const data = this.data;
    if (data !== null && typeof data === "object") {
      const value = (data as { errorCode?: unknown }).errorCode;
      if (typeof value === "string") return value;
    }
    return undefined;
  }

  /** The wire shape; `data` is omitted when absent so replies stay minimal. */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /**
   * Builds an RpcError from whatever arrived in an `error` member. Peers in the wild send
   * non-integer codes or omit the message; keep what is there instead of failing the call.
   */
  static fromObject(o: unknown): RpcError {
    if (o !== null && typeof o === "object") {
      const { code, message, data } = o as { code?: unknown; message?: unknown; data?: unknown };
      return new RpcError(
        typeof code === "number" ? code : INTERNAL_ERROR,
        typeof message === "string" ? message : JSON.stringify(message ?? "unknown error"),
        data,
      );
    }
    return new RpcError(INTERNAL_ERROR, typeof o === "string" ? o : "malformed error object", o);
  }
}

export type RpcLocalErrorCode =
  "TIMEOUT" | "ABORTED" | "CONNECTION_CLOSED" | "FRAME_TOO_LARGE" | "INVALID_FRAME";

/** Something that went wrong on this side of the connection. Never sent on the wire. */
export class RpcLocalError extends Error {
  readonly code: RpcLocalErrorCode;

  constructor(code: RpcLocalErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RpcLocalError";
    this.code = code;
  }
}
