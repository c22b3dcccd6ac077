// Provider answers are read through a byte cap: a provider (or anything at its base URL) that
// streams without end, or answers a gigabyte of JSON, fails the call instead of filling memory.
// The cap counts the body as it arrives, so a stream is cut the moment it passes.
import type { FetchFunction } from "./providers.js";

/** Far above any real answer (a 128k-token completion is well under 2 MiB of SSE). */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

export class ResponseTooLargeError extends Error {
  constructor(maxBytes: number, url: string) {
    super(
      `the answer from ${url} passed ${maxBytes} bytes; the gateway reads at most that much of one response`,
    );
    this.name = "ResponseTooLargeError";
  }
}

export function boundedFetch(fetch: FetchFunction, maxBytes: number): FetchFunction {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.body === null) return response;
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    let seen = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes)
          controller.error(new ResponseTooLargeError(maxBytes, new URL(url).origin));
        else controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
