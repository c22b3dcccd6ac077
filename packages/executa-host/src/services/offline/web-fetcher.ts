// One guarded GET: every hop (the URL and each redirect, ≤ 5) passes the SSRF policy and
// connects to the address the policy checked; the body is read up to a byte cap and the whole
// exchange runs under one deadline. Failures are `WebItemError`s with the item codes of R154
// (`SSRF_BLOCKED`, `TIMEOUT`, `HTTP_<status>`, `TOO_LARGE`, …) so a batch can report them per item.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { pipeline, type Readable } from "node:stream";
import { pinnedLookup, SsrfBlockedError, type SsrfPolicy } from "./web-ssrf.js";

/** Redirect hops followed before `TOO_MANY_REDIRECTS` (R154: ≤ 5). */
export const WEB_MAX_REDIRECTS = 5;
export const WEB_USER_AGENT = "AnnaWebFetcher/1.0 (+https://anna.partners; offline host)";

export type WebItemCode =
  | "INVALID_URL"
  | "SSRF_BLOCKED"
  | "TIMEOUT"
  | "TOO_LARGE"
  | "TOO_MANY_REDIRECTS"
  | "FETCH_FAILED"
  | "PARSE_FAILED"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "RESPONSE_BUDGET_EXCEEDED"
  | `HTTP_${number}`;

/** A per-item failure: `code` is the wire `error`, `message` says what to change. */
export class WebItemError extends Error {
  readonly code: WebItemCode;
  readonly finalUrl: string | undefined;

  constructor(code: WebItemCode, message: string, finalUrl?: string) {
    super(message);
    this.name = "WebItemError";
    this.code = code;
    this.finalUrl = finalUrl;
  }
}

export interface FetchedResponse {
  finalUrl: string;
  status: number;
  /** Lower-cased media type without parameters, `""` when absent. */
  mediaType: string;
  charset: string | undefined;
  body: Buffer;
}

export interface GuardedFetchOptions {
  policy: SsrfPolicy;
  timeoutMs: number;
  /** Body bytes (after decompression) beyond which the fetch fails with `TOO_LARGE`. */
  maxBytes: number;
  accept: string;
  signal?: AbortSignal;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function guardedFetch(
  raw: string,
  options: GuardedFetchOptions,
): Promise<FetchedResponse> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal =
    options.signal === undefined ? deadline : AbortSignal.any([deadline, options.signal]);
  let current: URL | undefined;
  try {
    let next = raw;
    for (let hop = 0; hop <= WEB_MAX_REDIRECTS; hop++) {
      const target = await options.policy.check(next, current);
      current = target.url;
      const response = await send(target.url, target.address, options.accept, signal);
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode ?? 0) && typeof location === "string") {
        // Close, not drain: a redirect's body is unused and may never end.
        response.destroy();
        next = location;
        continue;
      }
      const status = response.statusCode ?? 0;
      if (status < 200 || status > 299) {
        response.destroy();
        throw new WebItemError(
          `HTTP_${status}`,
          `${current.href} answered HTTP ${status}`,
          current.href,
        );
      }
      const body = await readCapped(response, options.maxBytes, current.href);
      const [type = "", ...params] = (response.headers["content-type"] ?? "").split(";");
      const charset = params
        .map((p) => /^\s*charset=["']?([^"';\s]+)/i.exec(p)?.[1])
        .find((c) => c !== undefined);
      return {
        finalUrl: current.href,
        status,
        mediaType: type.trim().toLowerCase(),
        charset,
        body,
      };
    }
    throw new WebItemError(
      "TOO_MANY_REDIRECTS",
      `more than ${WEB_MAX_REDIRECTS} redirects starting at ${raw}`,
      current?.href,
    );
  } catch (error) {
    if (error instanceof WebItemError) throw error;
    if (error instanceof SsrfBlockedError) {
      throw new WebItemError("SSRF_BLOCKED", error.message, current?.href);
    }
    if (error instanceof TypeError && current === undefined) {
      throw new WebItemError("INVALID_URL", `${JSON.stringify(raw)} is not an absolute URL`);
    }
    if (deadline.aborted) {
      throw new WebItemError(
        "TIMEOUT",
        `no complete answer from ${current?.href ?? raw} within ${options.timeoutMs} ms`,
        current?.href,
      );
    }
    if (options.signal?.aborted === true) {
      throw new WebItemError("FETCH_FAILED", "the call was cancelled", current?.href);
    }
    const code = (error as NodeJS.ErrnoException).code;
    throw new WebItemError(
      "FETCH_FAILED",
      `${current?.href ?? raw} could not be fetched (${code ?? (error as Error).message})`,
      current?.href,
    );
  }
}

function send(
  url: URL,
  address: { address: string; family: 4 | 6 },
  accept: string,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: "GET",
      lookup: pinnedLookup(address),
      signal,
      headers: {
        "user-agent": WEB_USER_AGENT,
        accept,
        "accept-encoding": "gzip, deflate, br",
      },
    });
    req.once("response", resolve);
    req.once("error", reject);
    req.end();
  });
}

/**
 * The body, decompressed. `pipeline`, not `pipe`: when the deadline destroys the response
 * mid-body, the decompressor must fail too, or the read waits forever for its end.
 */
function decoded(response: IncomingMessage): Readable {
  const decompressor = (() => {
    switch ((response.headers["content-encoding"] ?? "").trim().toLowerCase()) {
      case "gzip":
      case "x-gzip":
        return createGunzip();
      case "deflate":
        return createInflate();
      case "br":
        return createBrotliDecompress();
      default:
        return undefined;
    }
  })();
  if (decompressor === undefined) return response;
  // The error reaches the reader through the decompressor; the callback only keeps it handled.
  return pipeline(response, decompressor, () => {});
}

async function readCapped(
  response: IncomingMessage,
  maxBytes: number,
  url: string,
): Promise<Buffer> {
  const declared = Number(response.headers["content-length"]);
  if (
    Number.isFinite(declared) &&
    declared > maxBytes &&
    response.headers["content-encoding"] === undefined
  ) {
    response.destroy();
    throw new WebItemError("TOO_LARGE", `${url} is ${declared} bytes; the cap is ${maxBytes}`, url);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const stream = decoded(response);
  for await (const chunk of stream) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) {
      response.destroy();
      stream.destroy();
      throw new WebItemError("TOO_LARGE", `${url} is over the cap of ${maxBytes} bytes`, url);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
