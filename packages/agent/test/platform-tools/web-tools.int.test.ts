import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SsrfPolicy } from "@anna-ai/executa-host";
import { describe, expect, it, onTestFinished } from "vitest";
import { Secret } from "../../src/config/secret.js";
import {
  SearchConfigError,
  searchProviderFromEnv,
} from "../../src/platform-tools/web/search-config.js";
import { tavilySearchProvider } from "../../src/platform-tools/web/search-provider.js";
import { webTools } from "../../src/platform-tools/web/web-tools.js";
import { context, fails, ok } from "./helpers.js";

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 answering with `handler`; records each request. */
async function serve(handler: Handler) {
  const requests: { url: string; headers: IncomingMessage["headers"]; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      requests.push({ url: req.url ?? "", headers: req.headers, body });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, requests };
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

const KEY = "tvly-test-key";

describe("web_search", () => {
  it("says it is off and how to configure a provider when none is", async () => {
    const error = await fails(webTools({ search: undefined }), "web_search", { query: "anna" });
    expect(error.code).toBe("NOT_CONFIGURED");
    expect(error.message).toMatch(/ANNA_WEB_SEARCH_PROVIDER=tavily/);
    expect(searchProviderFromEnv({})).toBeUndefined();
  });

  it("asks a Tavily-style HTTP JSON provider and returns capped snippets", async () => {
    const fake = await serve((_req, _body, res) =>
      json(res, 200, {
        query: "anna",
        results: [
          { title: "Anna", url: "https://anna.example/", content: "s".repeat(5000), score: 0.9 },
          {
            title: null,
            url: "https://b.example/",
            content: "short",
            published_date: "2026-01-02",
          },
        ],
      }),
    );
    const search = searchProviderFromEnv({
      ANNA_WEB_SEARCH_PROVIDER: "tavily",
      ANNA_WEB_SEARCH_API_KEY: KEY,
      ANNA_WEB_SEARCH_BASE_URL: fake.baseUrl,
    });
    const out = await ok(webTools({ search }), "web_search", {
      query: "anna",
      max_results: 3,
      topic: "news",
      include_domains: ["anna.example"],
    });
    expect(fake.requests[0]?.url).toBe("/search");
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(fake.requests[0]?.body ?? "")).toMatchObject({
      query: "anna",
      max_results: 3,
      topic: "news",
      include_domains: ["anna.example"],
    });
    const results = out.results as { title: string; snippet: string; published_at?: string }[];
    expect(out.provider).toBe("tavily");
    expect(results).toHaveLength(2);
    expect(results[0]?.snippet.length).toBe(600);
    expect(results[1]).toMatchObject({ title: "https://b.example/", published_at: "2026-01-02" });
  });

  it("reports provider failures with what to check", async () => {
    const fake = await serve((req, _body, res) =>
      req.headers.authorization === `Bearer ${KEY}`
        ? json(res, 200, { nothing: true })
        : json(res, 401, { detail: "bad key" }),
    );
    const wrongKey = tavilySearchProvider({ apiKey: new Secret("nope"), baseUrl: fake.baseUrl });
    const denied = await fails(webTools({ search: wrongKey }), "web_search", { query: "x" });
    expect(denied).toMatchObject({ code: "PROVIDER_ERROR" });
    expect(denied.message).toMatch(/HTTP 401; check ANNA_WEB_SEARCH_API_KEY/);
    expect(denied.message).not.toMatch(/nope/);
    const garbled = tavilySearchProvider({ apiKey: new Secret(KEY), baseUrl: fake.baseUrl });
    const shape = await fails(webTools({ search: garbled }), "web_search", { query: "x" });
    expect(shape.message).toMatch(/without a results list/);
  });

  it("times out a provider that does not answer", async () => {
    const fake = await serve(() => {
      /* never answers */
    });
    const slow = tavilySearchProvider({
      apiKey: new Secret(KEY),
      baseUrl: fake.baseUrl,
      timeoutMs: 200,
    });
    const error = await fails(webTools({ search: slow }), "web_search", { query: "x" });
    expect(error.message).toMatch(/did not answer within 200 ms/);
  });

  it("stops waiting for the provider when the turn is cancelled", async () => {
    const fake = await serve(() => {
      /* never answers */
    });
    const search = tavilySearchProvider({ apiKey: new Secret(KEY), baseUrl: fake.baseUrl });
    const turn = new AbortController();
    const pending = fails(
      webTools({ search }),
      "web_search",
      { query: "x" },
      context("u_alice", { signal: turn.signal }),
    );
    await expect.poll(() => fake.requests.length).toBe(1);
    turn.abort();
    expect((await pending).message).toMatch(/was cancelled/);
  });

  it("needs the app's web_grant when the turn runs for an app", async () => {
    const fake = await serve((_req, _body, res) => json(res, 200, { results: [] }));
    const search = tavilySearchProvider({ apiKey: new Secret(KEY), baseUrl: fake.baseUrl });
    const tools = webTools({ search, grant: () => Promise.resolve({ enabled: false }) });
    const error = await fails(
      tools,
      "web_search",
      { query: "x" },
      context("u_alice", { appId: "a1" }),
    );
    expect(error).toMatchObject({ code: "NOT_GRANTED" });
    expect(fake.requests).toHaveLength(0);
    const granted = webTools({ search, grant: () => Promise.resolve({ enabled: true }) });
    expect(await ok(granted, "web_search", { query: "x" })).toMatchObject({ results: [] });
  });

  it("refuses a broken configuration naming the variable", () => {
    expect(() => searchProviderFromEnv({ ANNA_WEB_SEARCH_PROVIDER: "bing" })).toThrow(
      SearchConfigError,
    );
    expect(() => searchProviderFromEnv({ ANNA_WEB_SEARCH_PROVIDER: "tavily" })).toThrow(
      /ANNA_WEB_SEARCH_API_KEY/,
    );
    expect(() =>
      searchProviderFromEnv({
        ANNA_WEB_SEARCH_PROVIDER: "tavily",
        ANNA_WEB_SEARCH_API_KEY: KEY,
        ANNA_WEB_SEARCH_TIMEOUT_MS: "soon",
      }),
    ).toThrow(/ANNA_WEB_SEARCH_TIMEOUT_MS=soon/);
  });
});

describe("web_fetch", () => {
  it("fetches a page through the SSRF guard and extracts its text", async () => {
    const site = await serve((_req, _body, res) =>
      res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(
          "<html><title>Hi</title><nav>menu</nav><main><h1>Hello</h1><p>World</p></main></html>",
        ),
    );
    const tools = webTools({
      search: undefined,
      ssrfPolicy: new SsrfPolicy({ allowLoopback: true }),
    });
    const out = await ok(tools, "web_fetch", { url: `${site.baseUrl}/page` });
    expect(out).toMatchObject({ title: "Hi", truncated: false });
    expect(out.content).toMatch(/# Hello/);
    expect(out.content).not.toMatch(/menu/);
  });

  it("refuses loopback and private addresses with the production policy", async () => {
    const site = await serve((_req, _body, res) => res.end("secret"));
    const tools = webTools({ search: undefined });
    for (const url of [
      `${site.baseUrl}/`,
      "http://169.254.169.254/latest/meta-data",
      "file:///etc/passwd",
    ]) {
      const error = await fails(tools, "web_fetch", { url });
      expect(error.code, url).toBe("FETCH_FAILED");
    }
    expect(site.requests).toHaveLength(0);
  });

  it("refuses media it cannot read as text", async () => {
    const site = await serve((_req, _body, res) =>
      res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([137, 80])),
    );
    const tools = webTools({
      search: undefined,
      ssrfPolicy: new SsrfPolicy({ allowLoopback: true }),
    });
    expect((await fails(tools, "web_fetch", { url: site.baseUrl })).code).toBe(
      "UNSUPPORTED_MEDIA_TYPE",
    );
  });
});
