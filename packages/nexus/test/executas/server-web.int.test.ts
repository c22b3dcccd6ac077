// `web/*` on the server: search answered by the server's provider (a Tavily-style HTTP server on
// 127.0.0.1 here), with the family's grant checks and caps; without a provider, or for image
// search, a clear WEB_PROVIDER_ERROR naming how an operator turns it on; fetch refuses loopback
// (the SSRF guard has no test opening on the server).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { searchProviderFromEnv } from "@anna-ai/agent";
import { WEB_GRANT_ALL, type WebServiceContext } from "@anna-ai/executa-host";
import { describe, expect, it, onTestFinished } from "vitest";
import { serverWebService } from "../../src/executas/server-web.js";

function ctx(grant = WEB_GRANT_ALL as WebServiceContext["grant"]): WebServiceContext {
  return {
    userId: "7",
    toolId: "tool-x",
    invokeId: "inv-1",
    pluginName: "notes",
    tool: "look_up",
    deadlineMs: Number.POSITIVE_INFINITY,
    signal: new AbortController().signal,
    app: { appId: "notes", appScopeGranted: true },
    grant,
  };
}

async function tavily(results: unknown[]) {
  const bodies: unknown[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      bodies.push(JSON.parse(body));
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ results }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  onTestFinished(() => new Promise<void>((r) => server.close(() => r())));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

async function rpcError(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  const err = (await p.then(
    () => undefined,
    (e: unknown) => e,
  )) as { code: number; message: string } | undefined;
  expect(err, "expected the call to fail").toBeDefined();
  return err!;
}

describe("web/* on the server", () => {
  it("searches through the server's provider, mapped to the family's result shape", async () => {
    const fake = await tavily([
      { title: "Anna", url: "https://anna.example/a", content: "the first", score: 0.9 },
      { title: "Other", url: "https://other.example/b", content: "the second" },
    ]);
    const web = serverWebService({
      search: searchProviderFromEnv({
        ANNA_WEB_SEARCH_PROVIDER: "tavily",
        ANNA_WEB_SEARCH_API_KEY: "tvly-key",
        ANNA_WEB_SEARCH_BASE_URL: fake.baseUrl,
      }),
    });
    const out = await web.search(
      { query: "anna", max_results: 3, exclude_domains: ["other.example"] },
      ctx(),
    );
    expect(fake.bodies[0]).toMatchObject({ query: "anna", max_results: 3 });
    expect(out).toMatchObject({
      results: [
        {
          title: "Anna",
          url: "https://anna.example/a",
          snippet: "the first",
          site: "anna.example",
        },
      ],
      provider_tier: "tavily",
    });
    // The grant still decides: no search without allowSearch.
    const refused = await rpcError(
      web.search({ query: "anna" }, ctx({ enabled: true, allowSearch: false })),
    );
    expect(refused.message).toMatch(/allowSearch|not granted/i);
  });

  it("says how to configure search when the server has none, and that image search is not offered", async () => {
    const web = serverWebService({ search: undefined });
    const none = await rpcError(web.search({ query: "anna" }, ctx()));
    expect(none.message).toContain("ANNA_WEB_SEARCH_PROVIDER=tavily");
    const images = await rpcError(web.imageSearch({ query: "cats" }, ctx()));
    expect(images.message).toContain("no image search provider");
  });

  it("refuses to fetch loopback addresses for a plugin", async () => {
    const web = serverWebService({ search: undefined });
    const out = await web.fetch({ urls: ["http://127.0.0.1:9/secret"] }, ctx());
    expect(out.pages).toEqual([
      expect.objectContaining({
        url: "http://127.0.0.1:9/secret",
        ok: false,
        error: "SSRF_BLOCKED",
      }),
    ]);
  });
});
