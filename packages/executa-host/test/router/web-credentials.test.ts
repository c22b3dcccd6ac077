// The web/* and credentials/* twins through the router (R20, R66–R69, R157): their gates, the
// plugin budgets of the web service, the credentials_token and its providers claim, and the codes.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CREDENTIALS_ERRORS, WEB_ERRORS } from "@anna-ai/app-schema/errors";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { ReverseRpcRouter } from "../../src/router/reverse-rpc-router.js";
import type { PluginSessionInfo } from "../../src/router/contracts.js";
import {
  createStaticGrantPolicy,
  type GrantByFamily,
  type GrantFamily,
  type GrantInvoke,
} from "../../src/services/grants.js";
import { createOfflineCredentialsService } from "../../src/services/offline/credentials-offline.js";
import { LoopbackBlobServer } from "../../src/services/offline/blob-server.js";
import { createMemoryFilesService } from "../../src/services/offline/files-memory.js";
import { solidPng } from "../../src/services/offline/image-png.js";
import { createOfflineWebService } from "../../src/services/offline/web-offline.js";
import { createRecordingServices } from "../../src/services/recording-services.js";
import { WEB_GRANT_ALL } from "../../src/services/web-service.js";
import { createDevTokenIssuer } from "../../src/tokens/dev-token-issuer.js";
import { TOKEN_AUDIENCES } from "../../src/tokens/token-issuer.js";
import { NEVER, ctx, expectRpcError, harness, invokeStart, sessionInfo } from "./helpers.js";

const WEB_CAPS = ["web.search", "web.fetch"];
const GOOGLE = ["GOOGLE_ACCESS_TOKEN"];

/** A router over the offline web and credentials services (loopback fetch allowed). */
async function offline(
  grants: Partial<GrantByFamily>,
  info: Partial<PluginSessionInfo>,
  app?: { appId: string; appScopeGranted: boolean },
) {
  const tokens = await createDevTokenIssuer();
  const router = new ReverseRpcRouter({
    services: {
      web: createOfflineWebService({ allowLoopback: true }),
      credentials: createOfflineCredentialsService({
        accounts: {
          google: [
            { account_id: "g-work", email: "me@work.example", access_token: "ya29.work" },
            { account_id: "g-home", is_default: true, access_token: "ya29.home" },
          ],
          twitter: [{ account_id: "t-1" }],
        },
      }),
    },
    grants: createStaticGrantPolicy(grants),
    tokens,
  });
  const session = router.attach(sessionInfo(info));
  const context = await session.beginInvoke(invokeStart("inv-1", app ? { app } : {}));
  return { session, context, tokens };
}

describe("web/* gates and codes", () => {
  it("needs the host_capabilities entry of each method: web.fetch does not open image_fetch", async () => {
    const { session } = harness({}, { hostCapabilities: ["web.fetch"] });
    await session.beginInvoke(invokeStart("inv-1"));
    await expectRpcError(
      session.handleRequest("web/search", { query: "x", ...ctx("inv-1") }, NEVER),
      -32527,
      "WEB_NOT_NEGOTIATED",
      /host_capabilities\['web\.search'\].*add "web\.search"/,
    );
    await expectRpcError(
      session.handleRequest("web/image_fetch", { url: "https://a.example/x.png" }, NEVER),
      -32527,
      "WEB_NOT_NEGOTIATED",
      /web\.image_fetch/,
    );
    await expect(
      session.handleRequest("web/fetch", { urls: ["https://a.example/"] }, NEVER),
    ).resolves.toMatchObject({ pages: [{ url: "https://a.example/", ok: true }] });
  });

  it("answers a v1.1 plugin with WEB_NOT_NEGOTIATED and a missing web_grant with -32521", async () => {
    const v1 = harness({}, { hostCapabilities: WEB_CAPS, protocolVersion: "1.1" });
    await v1.session.beginInvoke(invokeStart("inv-1"));
    await expectRpcError(
      v1.session.handleRequest("web/search", { query: "x" }, NEVER),
      WEB_ERRORS.NOT_NEGOTIATED.code,
      "WEB_NOT_NEGOTIATED",
      /protocol v2/,
    );
    const ungranted = harness(
      { grants: createStaticGrantPolicy({ sampling: {} }) },
      { hostCapabilities: WEB_CAPS },
    );
    await ungranted.session.beginInvoke(invokeStart("inv-1"));
    await expectRpcError(
      ungranted.session.handleRequest("web/search", { query: "x" }, NEVER),
      WEB_ERRORS.NOT_GRANTED.code,
      "WEB_NOT_GRANTED",
      /has not granted web to executa tool-a/,
    );
    expect(ungranted.services.calls).toEqual([]);
  });

  it("hands the service the web_grant, no token and no app, even for an invoke from an app", async () => {
    const { session, services } = harness({}, { hostCapabilities: WEB_CAPS });
    const context = await session.beginInvoke(
      invokeStart("inv-1", { app: { appId: "app-1", appScopeGranted: true } }),
    );
    expect(Object.keys(context)).not.toContain("web_token");
    await session.handleRequest("web/search", { query: "news", ...ctx("inv-1") }, NEVER);
    const call = services.calls[0];
    expect(call).toMatchObject({ service: "web", method: "search", params: { query: "news" } });
    expect(call?.ctx.grant).toEqual(WEB_GRANT_ALL);
    expect(call?.ctx.app).toBeUndefined();
    expect(call?.ctx.token).toBeUndefined();
  });

  it("has no initialize key to check, so strict mode does not close web or credentials", async () => {
    const { session } = harness(
      { strictPluginCapabilities: true },
      {
        hostCapabilities: WEB_CAPS,
        credentialNames: GOOGLE,
        pluginCapabilities: { sampling: {} },
      },
    );
    await session.beginInvoke(invokeStart("inv-1"));
    await expect(session.handleRequest("web/search", { query: "x" }, NEVER)).resolves.toBeDefined();
    await expect(
      session.handleRequest("credentials/listAccounts", { provider: "google" }, NEVER),
    ).resolves.toEqual({ accounts: [] });
  });

  it("refuses a params shape with -32524 and a failing service with -32523", async () => {
    const { session } = harness({}, { hostCapabilities: WEB_CAPS });
    await session.beginInvoke(invokeStart("inv-1"));
    await expectRpcError(
      session.handleRequest("web/fetch", { urls: "https://a.example/" }, NEVER),
      WEB_ERRORS.INVALID_REQUEST.code,
      "WEB_INVALID_REQUEST",
      /web\/fetch: invalid params: 'urls'/,
    );
    const broken = createRecordingServices();
    broken.web = {
      ...broken.web!,
      search: () => Promise.reject(new Error("provider chain exhausted")),
    };
    const session2 = new ReverseRpcRouter({
      services: broken,
      grants: createStaticGrantPolicy({ web: WEB_GRANT_ALL }),
    }).attach(sessionInfo({ hostCapabilities: WEB_CAPS }));
    await session2.beginInvoke(invokeStart("inv-2"));
    await expectRpcError(
      session2.handleRequest("web/search", { query: "x" }, NEVER),
      WEB_ERRORS.PROVIDER_ERROR.code,
      "WEB_PROVIDER_ERROR",
      "provider chain exhausted",
    );
  });
});

describe("web/fetch plugin budgets (R157) against a loopback server", () => {
  let server: Server;
  let base = "";
  // 8 000 four-byte characters: 32 000 UTF-8 bytes per page after the 8 000-char cap.
  const page = "🦊".repeat(9_000);
  const png = solidPng(4, 3, { r: 200, g: 10, b: 10 });
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/fox.png") {
        // A lying content type: the image is recognised by its bytes.
        res.writeHead(200, { "content-type": "application/octet-stream" });
        res.end(png);
        return;
      }
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.end(page);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("caps pages at 8 000 chars and the answer at 256 KiB, even when an app started the invoke", async () => {
    const { session } = await offline(
      { web: { enabled: true } },
      { hostCapabilities: WEB_CAPS },
      { appId: "app-1", appScopeGranted: true },
    );
    const urls = Array.from({ length: 10 }, (_, i) => `${base}/p${i}`);
    const result = (await session.handleRequest("web/fetch", { urls }, NEVER)) as {
      pages: { ok: boolean; content?: string; truncated?: boolean; error?: string }[];
    };
    expect(result.pages).toHaveLength(10);
    const ok = result.pages.filter((p) => p.ok);
    // 8 × 32 000 bytes fit in 262 144; the ninth would not.
    expect(ok).toHaveLength(8);
    expect(ok.every((p) => [...(p.content ?? "")].length === 8_000 && p.truncated)).toBe(true);
    expect(result.pages.slice(8).map((p) => p.error)).toEqual([
      "RESPONSE_BUDGET_EXCEEDED",
      "RESPONSE_BUDGET_EXCEEDED",
    ]);
    await expectRpcError(
      session.handleRequest("web/fetch", { urls: [base], max_chars: 8_001 }, NEVER),
      WEB_ERRORS.INVALID_REQUEST.code,
      "WEB_INVALID_REQUEST",
      /'max_chars' must be an integer from 1 to 8000/,
    );
  });

  it("image_fetch stores the image in the plugin's tool scope, even for an invoke from an app", async () => {
    const blobServer = new LoopbackBlobServer();
    await blobServer.start();
    onTestFinished(() => blobServer.close());
    const files = createMemoryFilesService({ blobServer });
    const session = new ReverseRpcRouter({
      services: { web: createOfflineWebService({ allowLoopback: true, files }), files },
      grants: createStaticGrantPolicy({ web: WEB_GRANT_ALL }),
    }).attach(sessionInfo({ hostCapabilities: ["web.image_fetch"] }));
    await session.beginInvoke(
      invokeStart("inv-1", { app: { appId: "app-1", appScopeGranted: true } }),
    );
    const stored = (await session.handleRequest(
      "web/image_fetch",
      { url: `${base}/fox.png` },
      NEVER,
    )) as { path: string; get_url: string; mime_type: string; bytes_size: number };
    expect(stored).toMatchObject({ mime_type: "image/png", bytes_size: png.length });
    expect(stored.path).toMatch(/^web\/images\/[0-9a-f]{32}\.png$/);
    const got = await fetch(stored.get_url);
    expect(Buffer.from(await got.arrayBuffer()).equals(png)).toBe(true);
    const listed = await files.list(
      { scope: "tool", prefix: "web/" },
      {
        userId: "user-1",
        toolId: "tool-a",
        invokeId: "inv-1",
        pluginName: "plugin-a",
        tool: "do-it",
        deadlineMs: Date.now() + 60_000,
        signal: NEVER,
        grant: {},
      },
    );
    expect(listed.items.map((i) => i.path)).toEqual([stored.path]);
  });

  it("lets the web_grant's flags through to the service: image_fetch stays off by default", async () => {
    const { session } = await offline(
      { web: { enabled: true } },
      { hostCapabilities: [...WEB_CAPS, "web.image_fetch"] },
    );
    await expectRpcError(
      session.handleRequest("web/image_fetch", { url: `${base}/x.png` }, NEVER),
      WEB_ERRORS.NOT_GRANTED.code,
      "WEB_NOT_GRANTED",
      /allowImageFetch/,
    );
  });
});

describe("credentials/* gates, token and codes (R66–R69)", () => {
  it("is closed with -32061 when no declared credential maps to an OAuth provider", async () => {
    const { session, context } = await offline(
      { credentials: {} },
      { hostCapabilities: [], credentialNames: ["GITHUB_TOKEN"] },
    );
    expect(context).toEqual({});
    await expectRpcError(
      session.handleRequest("credentials/getToken", { provider: "github" }, NEVER),
      CREDENTIALS_ERRORS.NOT_GRANTED.code,
      "CREDENTIALS_NOT_GRANTED",
      /declares no credential that maps to an OAuth provider.*GOOGLE_ACCESS_TOKEN/,
    );
  });

  it("mints credentials_token with the declared providers, no host_capabilities needed", async () => {
    const { session, context, tokens } = await offline(
      { credentials: {} },
      { hostCapabilities: [], credentialNames: ["GMAIL_ACCESS_TOKEN", "X_ACCESS_TOKEN", "OTHER"] },
    );
    expect(Object.keys(context)).toEqual(["credentials_token"]);
    const verified = await tokens.verify(
      context["credentials_token"] ?? "",
      TOKEN_AUDIENCES.credentials,
      { userId: "user-1", toolId: "tool-a", invokeId: "inv-1" },
    );
    expect(verified.claims["providers"]).toEqual(["google", "twitter"]);
    const listed = await session.handleRequest(
      "credentials/listAccounts",
      { provider: "google" },
      NEVER,
    );
    expect(listed).toEqual({
      accounts: [
        expect.objectContaining({ account_id: "g-work", is_default: false }),
        expect.objectContaining({ account_id: "g-home", is_default: true }),
      ],
    });
    expect(JSON.stringify(listed)).not.toContain("ya29");
    await expect(
      session.handleRequest("credentials/getToken", { provider: "google" }, NEVER),
    ).resolves.toMatchObject({ access_token: "ya29.home", account_id: "g-home" });
  });

  it("refuses a provider outside the claim, an unknown account and an email with the R69 codes", async () => {
    const { session } = await offline(
      { credentials: {} },
      { hostCapabilities: [], credentialNames: GOOGLE },
    );
    await expectRpcError(
      session.handleRequest("credentials/getToken", { provider: "twitter" }, NEVER),
      -32061,
      "CREDENTIALS_NOT_GRANTED",
      /provider "twitter" is not granted \(granted: google\)/,
    );
    await expectRpcError(
      session.handleRequest(
        "credentials/getToken",
        { provider: "google", account_id: "nope" },
        NEVER,
      ),
      -32061,
      "CREDENTIALS_NOT_GRANTED",
    );
    await expectRpcError(
      session.handleRequest(
        "credentials/getToken",
        { provider: "google", account_id: "me@work.example" },
        NEVER,
      ),
      -32062,
      "CREDENTIALS_INVALID_REQUEST",
      /looks like an email/,
    );
    await expectRpcError(
      session.handleRequest("credentials/listAccounts", {}, NEVER),
      -32062,
      "CREDENTIALS_INVALID_REQUEST",
      /'provider'/,
    );
  });

  it("has no token and answers -32061 when the policy withholds it or narrows it to nothing", async () => {
    for (const grants of [{}, { credentials: { providers: ["twitter"] } }]) {
      const { session, context } = await offline(grants, {
        hostCapabilities: [],
        credentialNames: GOOGLE,
      });
      expect(context).toEqual({});
      await expectRpcError(
        session.handleRequest("credentials/listAccounts", { provider: "google" }, NEVER),
        -32061,
        "CREDENTIALS_NOT_GRANTED",
        /carries no credentials_token covering its declared providers \(google\)/,
      );
    }
  });

  it("passes the token and the claim to the service; a non-catalogued failure is -32063", async () => {
    const services = createRecordingServices();
    services.credentials = {
      ...services.credentials!,
      getToken: () => Promise.reject(new Error("nexus unreachable")),
    };
    const tokens = await createDevTokenIssuer();
    const router = new ReverseRpcRouter({
      services,
      grants: createStaticGrantPolicy({ credentials: {} }),
      tokens,
    });
    const session = router.attach(sessionInfo({ hostCapabilities: [], credentialNames: GOOGLE }));
    const context = await session.beginInvoke(invokeStart("inv-1"));
    await session.handleRequest("credentials/listAccounts", { provider: "google" }, NEVER);
    expect(services.calls[0]?.ctx).toMatchObject({
      grant: { enabled: true, providers: ["google"] },
      token: context["credentials_token"],
    });
    await expectRpcError(
      session.handleRequest("credentials/getToken", { provider: "google" }, NEVER),
      CREDENTIALS_ERRORS.UPSTREAM.code,
      "CREDENTIALS_UPSTREAM",
      "nexus unreachable",
    );
  });
});

describe("the grant policy sees the invoke it answers for", () => {
  it("is told the app an invoke came from, and nothing for a plain invoke", async () => {
    const asked: unknown[] = [];
    const router = new ReverseRpcRouter({
      services: { web: createOfflineWebService({ allowLoopback: true }) },
      grants: {
        isGranted<F extends GrantFamily>(
          _userId: string,
          _toolId: string,
          family: F,
          invoke?: GrantInvoke,
        ) {
          asked.push({ family, invoke });
          const web = family === "web" && invoke?.app?.appId === "app-1";
          return (web ? WEB_GRANT_ALL : undefined) as GrantByFamily[F] | undefined;
        },
      },
    });
    const session = router.attach(sessionInfo({ hostCapabilities: WEB_CAPS }));
    const app = { appId: "app-1", appScopeGranted: false };
    await session.beginInvoke(invokeStart("inv-app", { app }));
    await expect(
      session.handleRequest(
        "web/fetch",
        { urls: ["https://a.example/"], ...ctx("inv-app") },
        NEVER,
      ),
      // Past the grant gate: the page's own fetch answers (no network needed to say so).
    ).resolves.toMatchObject({ pages: [{ url: "https://a.example/" }] });
    await session.beginInvoke(invokeStart("inv-plain"));
    await expectRpcError(
      session.handleRequest(
        "web/fetch",
        { urls: ["https://a.example/"], ...ctx("inv-plain") },
        NEVER,
      ),
      WEB_ERRORS.NOT_GRANTED.code,
      "WEB_NOT_GRANTED",
      /has not granted web/,
    );
    expect(asked).toEqual([
      { family: "web", invoke: { app } },
      { family: "web", invoke: {} },
    ]);
  });
});
