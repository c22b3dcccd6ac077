// `web.fetch` offline: every URL really goes out through the SSRF-guarded fetcher; a URL that
// fails is reported in its own item, and the response budget keeps the first pages (R154).
import type { WebFetchPage, WebFetchParams, WebFetchResult } from "@anna-ai/app-schema";
import type { WebServiceContext } from "../web-service.js";
import { checkCount, invalid, requireGrant } from "./web-checks.js";
import {
  extractHtml,
  htmlMetaCharset,
  isHtml,
  isPlainText,
  WEB_FETCH_FORMATS,
  type WebFetchFormat,
} from "./web-extract.js";
import { guardedFetch, WebItemError } from "./web-fetcher.js";
import {
  WEB_APP_BUDGET,
  WEB_FETCH_DEFAULT_TIMEOUT_MS,
  WEB_FETCH_MAX_DOWNLOAD_BYTES,
  WEB_FETCH_MAX_TIMEOUT_MS,
  WEB_FETCH_MAX_URLS,
  WEB_PLUGIN_BUDGET,
  WEB_TITLE_MAX_CHARS,
  WEB_URL_MAX_CHARS,
  type WebBudget,
} from "./web-limits.js";
import type { SsrfPolicy } from "./web-ssrf.js";

export async function webFetch(
  params: WebFetchParams,
  ctx: WebServiceContext,
  policy: SsrfPolicy,
): Promise<WebFetchResult> {
  requireGrant(ctx.grant, "allowFetch", "web/fetch");
  const budget: WebBudget = ctx.app === undefined ? WEB_PLUGIN_BUDGET : WEB_APP_BUDGET;
  const urls: unknown = params.urls;
  if (!Array.isArray(urls) || urls.length < 1 || urls.length > WEB_FETCH_MAX_URLS) {
    throw invalid(
      `web/fetch: 'urls' takes 1 to ${WEB_FETCH_MAX_URLS} URLs; got ${Array.isArray(urls) ? urls.length : typeof urls}`,
    );
  }
  for (const [i, url] of urls.entries()) {
    if (typeof url !== "string" || url.length === 0 || url.length > WEB_URL_MAX_CHARS) {
      throw invalid(`web/fetch: urls[${i}] must be a URL of 1 to ${WEB_URL_MAX_CHARS} chars`);
    }
  }
  const format = (params.format ?? "markdown") as WebFetchFormat;
  if (!WEB_FETCH_FORMATS.includes(format)) {
    throw invalid(
      `web/fetch: 'format' ${JSON.stringify(params.format)} is not one of ${WEB_FETCH_FORMATS.join(", ")}`,
    );
  }
  const maxChars = checkCount(
    params.max_chars,
    budget.defaultCharsPerPage,
    budget.maxCharsPerPage,
    "max_chars",
  );
  const timeoutMs = checkCount(
    params.timeout_ms,
    WEB_FETCH_DEFAULT_TIMEOUT_MS,
    WEB_FETCH_MAX_TIMEOUT_MS,
    "timeout_ms",
  );
  const settled = await Promise.all(
    (urls as string[]).map((url) =>
      fetchPage(url, format, maxChars, timeoutMs, ctx.signal, policy),
    ),
  );
  // The response budget counts in input order, so the first pages win (R154).
  let used = 0;
  const pages = settled.map((page): WebFetchPage => {
    if (!page.ok || page.content === undefined) return page;
    const bytes = Buffer.byteLength(page.content) + Buffer.byteLength(page.title ?? "");
    if (used + bytes > budget.maxResponseBytes) {
      return {
        url: page.url,
        ...(page.final_url === undefined ? {} : { final_url: page.final_url }),
        ok: false,
        error: "RESPONSE_BUDGET_EXCEEDED",
        error_message: `this page would take the answer past ${budget.maxResponseBytes} bytes; fetch it in another call or lower max_chars`,
      };
    }
    used += bytes;
    return page;
  });
  return { pages, quota_consumed: 0 };
}

async function fetchPage(
  url: string,
  format: WebFetchFormat,
  maxChars: number,
  timeoutMs: number,
  signal: AbortSignal,
  policy: SsrfPolicy,
): Promise<WebFetchPage> {
  try {
    const fetched = await guardedFetch(url, {
      policy,
      timeoutMs,
      maxBytes: WEB_FETCH_MAX_DOWNLOAD_BYTES,
      accept: "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5",
      signal,
    });
    const charset =
      fetched.charset ?? (isHtml(fetched.mediaType) ? htmlMetaCharset(fetched.body) : undefined);
    let text: string;
    try {
      text = new TextDecoder(charset ?? "utf-8").decode(fetched.body);
    } catch {
      text = fetched.body.toString("utf8");
    }
    let title: string | undefined;
    let content: string;
    if (isHtml(fetched.mediaType)) {
      ({ title, content } = extractHtml(text, format, fetched.finalUrl));
    } else if (isPlainText(fetched.mediaType)) {
      content = text;
    } else {
      throw new WebItemError(
        "PARSE_FAILED",
        `${fetched.finalUrl} is ${fetched.mediaType}, which has no text to extract; fetch HTML or text pages`,
        fetched.finalUrl,
      );
    }
    const cut = cutChars(content, maxChars);
    const truncated = cut.length < content.length;
    return {
      url,
      final_url: fetched.finalUrl,
      ok: true,
      ...(title === undefined ? {} : { title: cutChars(title, WEB_TITLE_MAX_CHARS) }),
      content: cut,
      truncated,
    };
  } catch (error) {
    if (!(error instanceof WebItemError)) throw error;
    return {
      url,
      ...(error.finalUrl === undefined ? {} : { final_url: error.finalUrl }),
      ok: false,
      error: error.code,
      error_message: error.message,
    };
  }
}

/** The first `max` code points of `text` (never half a surrogate pair), without an array of all. */
function cutChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (let count = 0; count < max && end < text.length; count++) {
    end += (text.codePointAt(end) as number) > 0xffff ? 2 : 1;
  }
  return text.slice(0, end);
}
