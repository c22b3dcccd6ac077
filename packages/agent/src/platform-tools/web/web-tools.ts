// The web family: web_search (R96, the one server-side search surface) through the configured
// provider, and web_fetch, a page read through the dev tools' SSRF-guarded fetcher (every hop
// checked, the connection pinned to the checked address, the body capped). Search is gated like
// the Host API's `web.search`: when a caller's `web_grant` is given, it must allow search.
import {
  extractHtml,
  guardedFetch,
  SsrfPolicy,
  WEB_FETCH_DEFAULT_TIMEOUT_MS,
  WEB_FETCH_MAX_DOWNLOAD_BYTES,
  WebItemError,
  type WebGrant,
} from "@anna-ai/executa-host";
import { z } from "zod";
import type { AgentTool, ToolContext } from "../../turns/types.js";
import { platformTool, PlatformToolError } from "../platform-tool.js";
import { SEARCH_CONFIG_HINT, type SearchProvider } from "./search-provider.js";

export const WEB_FAMILY = "web";
export const WEB_SEARCH_DEFAULT_RESULTS = 5;
export const WEB_SEARCH_MAX_RESULTS = 10;
export const WEB_QUERY_MAX_CHARS = 400;
/** Characters of page text one web_fetch returns by default and at most. */
export const WEB_FETCH_DEFAULT_CHARS = 20_000;
export const WEB_FETCH_MAX_CHARS = 100_000;
/** Above the fetcher's longest deadline and the search provider's default timeout. */
export const WEB_TOOL_TIMEOUT_MS = 60_000;

export interface WebToolsOptions {
  /** `undefined`: search is off, and web_search says how to turn it on. */
  search: SearchProvider | undefined;
  /** The grant of the app the turn runs for, when it runs for one (R152: default disabled). */
  grant?: (ctx: ToolContext) => Promise<WebGrant | undefined>;
  /** Default: the production policy. Tests pass one that allows loopback. */
  ssrfPolicy?: SsrfPolicy;
  fetchTimeoutMs?: number;
}

async function checkGrant(
  options: WebToolsOptions,
  ctx: ToolContext,
  allow: "allowSearch" | "allowFetch",
): Promise<void> {
  if (options.grant === undefined) return;
  const grant = await options.grant(ctx);
  if (grant?.enabled !== true || grant[allow] === false) {
    throw new PlatformToolError(
      "NOT_GRANTED",
      `the user has not allowed this app web ${allow === "allowSearch" ? "search" : "fetch"}; they can enable it in the app's permissions (web_grant)`,
    );
  }
}

const domains = z.array(z.string().min(1).max(253)).max(20).default([]);

function webSearchTool(options: WebToolsOptions): AgentTool {
  return platformTool({
    name: "web_search",
    family: WEB_FAMILY,
    timeoutMs: WEB_TOOL_TIMEOUT_MS,
    description:
      "Search the public web (or news with topic: 'news') and return short snippets with their URLs.",
    input: z.object({
      query: z.string().trim().min(1).max(WEB_QUERY_MAX_CHARS),
      max_results: z.int().min(1).max(WEB_SEARCH_MAX_RESULTS).default(WEB_SEARCH_DEFAULT_RESULTS),
      topic: z.enum(["general", "news"]).default("general"),
      include_domains: domains,
      exclude_domains: domains,
    }),
    async run(input, ctx) {
      const provider = options.search;
      if (provider === undefined) {
        throw new PlatformToolError(
          "NOT_CONFIGURED",
          `web_search is off on this server: no search provider is configured (the operator can ${SEARCH_CONFIG_HINT})`,
        );
      }
      await checkGrant(options, ctx, "allowSearch");
      const hits = await provider.search(
        {
          query: input.query,
          maxResults: input.max_results,
          topic: input.topic,
          includeDomains: input.include_domains,
          excludeDomains: input.exclude_domains,
        },
        ctx.signal,
      );
      return {
        query: input.query,
        provider: provider.name,
        results: hits.map((h) => ({
          title: h.title,
          url: h.url,
          snippet: h.snippet,
          ...(h.publishedAt === undefined ? {} : { published_at: h.publishedAt }),
        })),
      };
    },
  });
}

const TEXT_TYPES = /^(text\/(plain|markdown|csv|xml)|application\/(.+\+)?(json|xml))$/;

function decode(body: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

function webFetchTool(options: WebToolsOptions): AgentTool {
  const policy = options.ssrfPolicy ?? new SsrfPolicy();
  const timeoutMs = options.fetchTimeoutMs ?? WEB_FETCH_DEFAULT_TIMEOUT_MS;
  return platformTool({
    name: "web_fetch",
    family: WEB_FAMILY,
    timeoutMs: WEB_TOOL_TIMEOUT_MS,
    description:
      "Fetch one public web page and return its main content as Markdown or plain text (navigation stripped).",
    input: z.object({
      url: z.string().min(1).max(2048),
      format: z.enum(["markdown", "text"]).default("markdown"),
      max_chars: z.int().min(100).max(WEB_FETCH_MAX_CHARS).default(WEB_FETCH_DEFAULT_CHARS),
    }),
    async run(input, ctx) {
      await checkGrant(options, ctx, "allowFetch");
      let page;
      try {
        page = await guardedFetch(input.url, {
          policy,
          timeoutMs,
          maxBytes: WEB_FETCH_MAX_DOWNLOAD_BYTES,
          accept: "text/html, text/plain;q=0.9, */*;q=0.5",
          signal: ctx.signal,
        });
      } catch (error) {
        if (!(error instanceof WebItemError)) throw error;
        throw new PlatformToolError("FETCH_FAILED", error.message, {
          cause: error,
          details: { reason: error.code },
        });
      }
      const html = page.mediaType === "text/html" || page.mediaType === "application/xhtml+xml";
      if (!html && !TEXT_TYPES.test(page.mediaType)) {
        throw new PlatformToolError(
          "UNSUPPORTED_MEDIA_TYPE",
          `${page.finalUrl} is ${page.mediaType || "of no declared type"}; web_fetch reads HTML and text pages`,
        );
      }
      const text = decode(page.body, page.charset);
      const extracted = html
        ? extractHtml(text, input.format, page.finalUrl)
        : { title: undefined, content: text };
      const truncated = extracted.content.length > input.max_chars;
      return {
        url: input.url,
        final_url: page.finalUrl,
        ...(extracted.title === undefined ? {} : { title: extracted.title }),
        content: truncated ? extracted.content.slice(0, input.max_chars) : extracted.content,
        truncated,
      };
    },
  });
}

export function webTools(options: WebToolsOptions): AgentTool[] {
  return [webSearchTool(options), webFetchTool(options)];
}
