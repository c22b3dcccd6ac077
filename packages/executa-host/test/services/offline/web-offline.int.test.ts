// The offline web service against real sockets: fetch through the SSRF guard (loopback only with
// the test option), redirects re-checked per hop, per-item failures, budgets, refused caps, grant
// checks, fixture-answered search, and image_fetch stored in the memory files service.
import { createHash } from "node:crypto";
import { WEB_ERRORS } from "@anna-ai/app-schema/errors";
import { describe, expect, it, onTestFinished } from "vitest";
import { LoopbackBlobServer } from "../../../src/services/offline/blob-server.js";
import { createMemoryFilesService } from "../../../src/services/offline/files-memory.js";
import { MockFixture } from "../../../src/services/offline/mock-fixture.js";
import { solidPng } from "../../../src/services/offline/image-png.js";
import {
  createOfflineWebService,
  type OfflineWebOptions,
} from "../../../src/services/offline/web-offline.js";
import {
  WEB_GRANT_ALL,
  type WebGrant,
  type WebServiceContext,
} from "../../../src/services/web-service.js";
import { expectCatalogError, serviceCtx } from "./helpers.js";
import { startWebServer } from "./web-test-server.js";

function ctx(grant: WebGrant = WEB_GRANT_ALL, app = true): WebServiceContext {
  return {
    ...serviceCtx(app ? { app: { appId: "app-1", appScopeGranted: true } } : {}),
    grant,
  };
}

const web = (options: OfflineWebOptions = {}) =>
  createOfflineWebService({ allowLoopback: true, ...options });

const PAGE = `<!doctype html><html><head><title>Notes &amp; more</title><script>evil()</script></head>
<body><nav>Home | About</nav><main><h1>Hello</h1><p>First <a href="/next">link</a> here.</p>
<ul><li>one</li><li>two</li></ul></main><footer>© footer</footer></body></html>`;

describe("web.fetch", () => {
  it("fetches a page from a real server and extracts its main content as Markdown", async () => {
    const server = await startWebServer({ "/page": { body: PAGE } });
    const out = await web().fetch({ urls: [server.url("/page")] }, ctx());
    expect(out.quota_consumed).toBe(0);
    expect(out.pages).toHaveLength(1);
    const page = out.pages[0]!;
    expect(page).toMatchObject({ ok: true, title: "Notes & more", truncated: false });
    expect(page.content).toBe(
      `# Hello\n\nFirst [link](${server.origin}/next) here.\n\n- one\n- two`,
    );
    expect(page.content).not.toMatch(/evil|Home|footer/);
  });

  it("answers plain text in format text and truncates at max_chars with truncated: true", async () => {
    const server = await startWebServer({
      "/page": { body: PAGE },
      "/plain": { body: "x".repeat(50), type: "text/plain" },
    });
    const out = await web().fetch(
      { urls: [server.url("/page"), server.url("/plain")], format: "text", max_chars: 10 },
      ctx(),
    );
    expect(out.pages[0]).toMatchObject({ ok: true, content: "Hello\n\nFir", truncated: true });
    expect(out.pages[1]).toMatchObject({ ok: true, content: "x".repeat(10), truncated: true });
  });

  it("blocks loopback without the test option, before any request is made", async () => {
    const server = await startWebServer({ "/page": { body: PAGE } });
    const out = await createOfflineWebService().fetch({ urls: [server.url("/page")] }, ctx());
    expect(out.pages[0]).toMatchObject({ ok: false, error: "SSRF_BLOCKED" });
    expect(server.hits.get("/page")).toBeUndefined();
  });

  it("re-checks every redirect hop: a redirect to a metadata or private address is blocked", async () => {
    const server = await startWebServer({
      "/to-metadata": { redirect: "http://169.254.169.254/latest/meta-data/" },
      "/to-private-name": { redirect: "http://intranet.example/admin" },
      "/hop1": { redirect: "/hop2", status: 301 },
      "/hop2": { redirect: "/page", status: 307 },
      "/page": { body: PAGE },
    });
    const resolver = async (host: string) =>
      host === "intranet.example"
        ? [{ address: "192.168.1.10", family: 4 as const }]
        : [{ address: "127.0.0.1", family: 4 as const }];
    const out = await web({ resolver }).fetch(
      {
        urls: [server.url("/to-metadata"), server.url("/to-private-name"), server.url("/hop1")],
      },
      ctx(),
    );
    expect(out.pages[0]).toMatchObject({ ok: false, error: "SSRF_BLOCKED" });
    expect(out.pages[0]?.error_message).toMatch(/169\.254\.169\.254/);
    expect(out.pages[1]).toMatchObject({ ok: false, error: "SSRF_BLOCKED" });
    expect(out.pages[1]?.error_message).toMatch(/192\.168\.1\.10/);
    expect(out.pages[2]).toMatchObject({ ok: true, final_url: server.url("/page") });
  });

  it("stops after 5 redirects", async () => {
    const routes = Object.fromEntries(
      Array.from({ length: 7 }, (_, i) => [`/r${i}`, { redirect: `/r${i + 1}` }]),
    );
    const server = await startWebServer(routes);
    const out = await web().fetch({ urls: [server.url("/r0")] }, ctx());
    expect(out.pages[0]).toMatchObject({ ok: false, error: "TOO_MANY_REDIRECTS" });
  });

  it("isolates failures per item and keeps the input order", async () => {
    const server = await startWebServer({
      "/ok": { body: PAGE },
      "/gone": { status: 410, body: "gone" },
      "/bin": { body: Buffer.from([0, 1, 2, 3]), type: "application/octet-stream" },
      "/slow": { hang: true },
    });
    const urls = [
      server.url("/gone"),
      "not a url",
      server.url("/ok"),
      server.url("/bin"),
      server.url("/slow"),
      "http://10.0.0.1/",
    ];
    const out = await web().fetch({ urls, timeout_ms: 300 }, ctx());
    expect(out.pages.map((p) => [p.url, p.ok, p.error])).toEqual([
      [urls[0], false, "HTTP_410"],
      [urls[1], false, "INVALID_URL"],
      [urls[2], true, undefined],
      [urls[3], false, "PARSE_FAILED"],
      [urls[4], false, "TIMEOUT"],
      [urls[5], false, "SSRF_BLOCKED"],
    ]);
  });

  it("fails the pages past the 512 KiB response budget with RESPONSE_BUDGET_EXCEEDED", async () => {
    // 100 000 three-byte characters = 300 000 bytes per page: the second page would pass 512 KiB.
    const server = await startWebServer({
      "/big": { body: "語".repeat(100_000), type: "text/plain; charset=utf-8" },
    });
    const urls = [server.url("/big"), server.url("/big"), server.url("/big")];
    const out = await web().fetch({ urls, max_chars: 100_000 }, ctx());
    expect(out.pages.map((p) => (p.ok ? "ok" : p.error))).toEqual([
      "ok",
      "RESPONSE_BUDGET_EXCEEDED",
      "RESPONSE_BUDGET_EXCEEDED",
    ]);
  });

  it("decodes a page by the charset its <meta> declares when the Content-Type names none", async () => {
    const latin1 = (html: string) => Buffer.from(html, "latin1");
    const server = await startWebServer({
      "/meta": {
        type: "text/html",
        body: latin1('<meta charset="iso-8859-1"><title>Café</title><p>crème brûlée</p>'),
      },
      "/http-equiv": {
        type: "text/html",
        body: latin1(
          '<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><p>naïve</p>',
        ),
      },
      "/header-wins": {
        type: "text/html; charset=utf-8",
        body: '<meta charset="iso-8859-1"><p>日本</p>',
      },
    });
    const out = await web().fetch(
      { urls: ["/meta", "/http-equiv", "/header-wins"].map(server.url), format: "text" },
      ctx(),
    );
    expect(out.pages.map((p) => [p.title, p.content])).toEqual([
      ["Café", "crème brûlée"],
      [undefined, "naïve"],
      [undefined, "日本"],
    ]);
  });

  it("cuts a page's title and counts it in the response budget", async () => {
    const huge = (n: number) => `<title>${"T".repeat(n)}</title><p>body</p>`;
    const server = await startWebServer({
      "/a": { body: huge(200_000) },
      "/b": { body: huge(900) },
    });
    const out = await web().fetch({ urls: [server.url("/a")] }, ctx(WEB_GRANT_ALL, false));
    expect(out.pages[0]).toMatchObject({ ok: true, content: "body" });
    expect(out.pages[0]?.title).toHaveLength(1000);
    // Six pages of 87 000 content bytes fit 512 KiB; with their 1 000-byte titles the sixth does not.
    const page = `<title>${"T".repeat(1000)}</title><p>${"x".repeat(87_000)}</p>`;
    const full = await startWebServer({ "/p": { body: page } });
    const six = await web().fetch(
      { urls: Array.from({ length: 6 }, () => full.url("/p")), max_chars: 87_000 },
      ctx(),
    );
    expect(six.pages.map((p) => (p.ok ? "ok" : p.error))).toEqual([
      ...Array.from({ length: 5 }, () => "ok"),
      "RESPONSE_BUDGET_EXCEEDED",
    ]);
  });

  it("holds plugins to 8 000 chars per page (R157)", async () => {
    const service = web();
    await expectCatalogError(
      service.fetch({ urls: ["https://example.com"], max_chars: 8001 }, ctx(WEB_GRANT_ALL, false)),
      WEB_ERRORS.INVALID_REQUEST,
      /max_chars' must be an integer from 1 to 8000/,
    );
    await expect(
      service.fetch({ urls: ["http://10.0.0.1/"], max_chars: 9000 }, ctx()),
    ).resolves.toBeDefined();
  });

  it.each([
    [{ urls: [] }, /1 to 10 URLs/],
    [{ urls: Array.from({ length: 11 }, () => "https://example.com") }, /1 to 10 URLs; got 11/],
    [{ urls: ["https://example.com"], max_chars: 100_001 }, /max_chars/],
    [{ urls: ["https://example.com"], timeout_ms: 60_001 }, /timeout_ms/],
    [
      { urls: ["https://example.com"], format: "pdf" },
      /'format' "pdf" is not one of markdown, text/,
    ],
  ])("refuses out-of-cap parameters %#, never clamps them", async (params, message) => {
    await expectCatalogError(web().fetch(params, ctx()), WEB_ERRORS.INVALID_REQUEST, message);
  });
});

describe("the web grant", () => {
  it("is required: disabled → WEB_NOT_GRANTED naming web_grant", async () => {
    await expectCatalogError(
      web().fetch({ urls: ["https://example.com"] }, ctx({})),
      WEB_ERRORS.NOT_GRANTED,
      /web_grant/,
    );
  });

  it("turns search and fetch on with enabled, but not advanced depth or the image methods", async () => {
    const fixture = MockFixture.parse(
      '{"ns":"web","method":"search","result":{"results":[]}}\n' +
        '{"ns":"web","method":"image_search","result":{"results":[]}}',
    );
    const service = web({ fixture });
    const enabled = ctx({ enabled: true });
    await expect(service.search({ query: "q" }, enabled)).resolves.toMatchObject({ results: [] });
    await expectCatalogError(
      service.search({ query: "q", search_depth: "advanced" }, enabled),
      WEB_ERRORS.NOT_GRANTED,
      /allowAdvanced/,
    );
    await expectCatalogError(
      service.imageSearch({ query: "q" }, enabled),
      WEB_ERRORS.NOT_GRANTED,
      /allowImageSearch/,
    );
    await expectCatalogError(
      service.imageFetch({ url: "https://example.com/a.png" }, enabled),
      WEB_ERRORS.NOT_GRANTED,
      /allowImageFetch/,
    );
  });
});

describe("web.search and web.image_search", () => {
  const fixture = MockFixture.parse(
    [
      JSON.stringify({
        ns: "web",
        method: "search",
        match: { contentIncludes: "anna" },
        result: {
          provider_tier: "tavily-basic",
          results: [
            {
              title: "A",
              url: "https://docs.example.com/a",
              snippet: "a",
              site: "docs.example.com",
            },
            {
              title: "B",
              url: "https://spam.example.org/b",
              snippet: "b",
              site: "spam.example.org",
            },
            { title: "C", url: "https://example.com/c", snippet: "c", site: "example.com" },
          ],
        },
      }),
      JSON.stringify({
        ns: "web",
        method: "image_search",
        result: {
          results: [
            {
              image_url: "https://i.example/wide.png",
              source_url: "https://i.example/",
              width: 1600,
              height: 900,
            },
            {
              image_url: "https://i.example/square.png",
              source_url: "https://i.example/",
              width: 500,
              height: 500,
            },
          ],
        },
      }),
    ].join("\n"),
  );

  it("answers from the fixture, filtered by domains and cut to max_results", async () => {
    const service = web({ fixture });
    const out = await service.search(
      { query: "anna docs", exclude_domains: ["spam.example.org"], max_results: 1 },
      ctx(),
    );
    expect(out).toEqual({
      results: [
        { title: "A", url: "https://docs.example.com/a", snippet: "a", site: "docs.example.com" },
      ],
      provider_tier: "tavily-basic",
      quota_consumed: 0,
    });
    const only = await service.search({ query: "anna", include_domains: ["example.com"] }, ctx());
    expect(only.results.map((r) => r.title)).toEqual(["A", "C"]);
  });

  it("without a matching fixture line fails with WEB_PROVIDER_ERROR naming where the line goes", async () => {
    await expectCatalogError(
      web({ fixtureHint: "--mock-web <file>" }).search({ query: "x" }, ctx()),
      WEB_ERRORS.PROVIDER_ERROR,
      /no search provider on this offline host; answer it with --mock-web <file>/,
    );
  });

  it("refuses max_results over the grant's maxResultsPerCall and an empty query", async () => {
    const service = web({ fixture });
    await expectCatalogError(
      service.search({ query: "anna", max_results: 11 }, ctx()),
      WEB_ERRORS.INVALID_REQUEST,
      /from 1 to 10; got 11/,
    );
    await expectCatalogError(
      service.search(
        { query: "anna", max_results: 4 },
        ctx({ ...WEB_GRANT_ALL, maxResultsPerCall: 3 }),
      ),
      WEB_ERRORS.INVALID_REQUEST,
      /from 1 to 3/,
    );
    await expectCatalogError(service.search({ query: " " }, ctx()), WEB_ERRORS.INVALID_REQUEST);
  });

  it("forces safe search, filters by aspect and serves a repeat from the 10-minute cache", async () => {
    let now = 0;
    const service = web({ fixture, clock: () => now });
    await expectCatalogError(
      service.imageSearch({ query: "cats", safe_search: false }, ctx()),
      WEB_ERRORS.INVALID_REQUEST,
      /safe search is always on/,
    );
    await expectCatalogError(
      service.imageSearch({ query: "cats", max_results: 51 }, ctx()),
      WEB_ERRORS.INVALID_REQUEST,
      /from 1 to 50/,
    );
    const first = await service.imageSearch({ query: "cats", aspect: "wide" }, ctx());
    expect(first.results.map((r) => r.image_url)).toEqual(["https://i.example/wide.png"]);
    expect(first.cached).toBe(false);
    now += 60_000;
    expect(await service.imageSearch({ query: "cats", aspect: "wide" }, ctx())).toMatchObject({
      cached: true,
    });
    now += 10 * 60_000;
    expect(await service.imageSearch({ query: "cats", aspect: "wide" }, ctx())).toMatchObject({
      cached: false,
    });
  });
});

describe("web.image_fetch", () => {
  async function withFiles() {
    const blobServer = new LoopbackBlobServer();
    onTestFinished(() => blobServer.close());
    await blobServer.start();
    return createMemoryFilesService({ blobServer });
  }

  it("downloads an image, checks it by magic bytes and stores it in the app's files", async () => {
    const png = solidPng(4, 4, { r: 255, g: 0, b: 0 });
    const server = await startWebServer({
      "/cat": { redirect: "/cat.png" },
      // The header lies: the bytes decide.
      "/cat.png": { body: png, type: "application/octet-stream" },
    });
    const files = await withFiles();
    const out = await web({ files }).imageFetch({ url: server.url("/cat") }, ctx());
    const sha256 = createHash("sha256").update(png).digest("hex");
    expect(out).toMatchObject({
      mime_type: "image/png",
      bytes_size: png.length,
      sha256,
      source_url: server.url("/cat"),
      final_url: server.url("/cat.png"),
      quota_consumed: 0,
    });
    expect(out.path).toMatch(/^web\/images\/[0-9a-f]{32}\.png$/);
    const stored = Buffer.from(await (await fetch(out.get_url)).arrayBuffer());
    expect(stored.equals(png)).toBe(true);
    const listed = await files.list({ scope: "app" }, { ...ctx(), grant: {} });
    expect(listed.items.map((i) => i.path)).toEqual([out.path]);
  });

  it("refuses what is not a JPEG, PNG, WebP or GIF whatever the Content-Type says", async () => {
    const server = await startWebServer({
      "/fake.png": { body: "<html>not an image</html>", type: "image/png" },
    });
    await expectCatalogError(
      web({ files: await withFiles() }).imageFetch({ url: server.url("/fake.png") }, ctx()),
      WEB_ERRORS.INVALID_REQUEST,
      /not a JPEG, PNG, WebP or GIF image \(checked by its bytes; the server said image\/png\)/,
    );
  });

  it("applies the SSRF policy and the byte cap", async () => {
    const server = await startWebServer({
      "/big.png": {
        body: Buffer.concat([solidPng(4, 4, { r: 0, g: 0, b: 0 }), Buffer.alloc(2048)]),
        type: "image/png",
      },
    });
    const files = await withFiles();
    await expectCatalogError(
      web({ files }).imageFetch({ url: "http://169.254.169.254/x.png" }, ctx()),
      WEB_ERRORS.INVALID_REQUEST,
      /169\.254\.169\.254/,
    );
    await expectCatalogError(
      web({ files }).imageFetch({ url: server.url("/big.png"), max_bytes: 1024 }, ctx()),
      WEB_ERRORS.INVALID_REQUEST,
      /cap of 1024 bytes|the cap is 1024/,
    );
    await expectCatalogError(
      web({ files }).imageFetch(
        { url: server.url("/big.png"), max_bytes: 21 * 1024 * 1024 },
        ctx(),
      ),
      WEB_ERRORS.INVALID_REQUEST,
      /max_bytes/,
    );
  });
});
