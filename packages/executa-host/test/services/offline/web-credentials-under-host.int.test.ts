// End to end: ts-kitchen-sink under ExecutaHost + ReverseRpcRouter with the offline web and
// credentials services. The plugin's own SDK code calls web/fetch against a real HTTP server on
// 127.0.0.1 (loopback opened by the test option only) and credentials/getToken with the
// credentials_token the router minted from its declared GOOGLE_ACCESS_TOKEN.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { ExecutaHost } from "../../../src/host/executa-host.js";
import { ReverseRpcRouter } from "../../../src/router/reverse-rpc-router.js";
import { createStaticGrantPolicy, type GrantByFamily } from "../../../src/services/grants.js";
import { createOfflineCredentialsService } from "../../../src/services/offline/credentials-offline.js";
import { createOfflineWebService } from "../../../src/services/offline/web-offline.js";
import { createDevTokenIssuer } from "../../../src/tokens/dev-token-issuer.js";
import { exampleSpecs } from "./helpers.js";

const USER = "user-1";
const env: NodeJS.ProcessEnv = { ...process.env, NO_PROXY: "127.0.0.1", no_proxy: "127.0.0.1" };

describe("web/* and credentials/* under ExecutaHost (ts-kitchen-sink)", () => {
  let server: Server;
  let base = "";
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/article") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(
          "<html><head><title>Tides</title></head><body><nav>menu</nav><main><h1>Tides</h1><p>The moon pulls the sea.</p></main></body></html>",
        );
        return;
      }
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("no such page");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const spec = exampleSpecs(["ts-kitchen-sink"], env);

  async function newHost(grants: Partial<GrantByFamily>) {
    const router = new ReverseRpcRouter({
      services: {
        web: createOfflineWebService({ allowLoopback: true }),
        credentials: createOfflineCredentialsService({
          accounts: {
            google: [
              { account_id: "g-work", email: "me@work.example", access_token: "ya29.work-8888" },
              { account_id: "g-home", is_default: true, access_token: "ya29.home-1234" },
            ],
          },
        }),
      },
      grants: createStaticGrantPolicy(grants),
      tokens: await createDevTokenIssuer(),
    });
    const host = new ExecutaHost({ env, router });
    onTestFinished(() => host.close());
    const plugin = host.register(spec("ts-kitchen-sink"), { userId: USER });
    return { host, toolId: plugin.toolId };
  }

  it("read_page fetches a loopback page through the host, each page with its own outcome", async () => {
    const { host, toolId } = await newHost({ web: { enabled: true } });
    const outcome = await host.invoke(USER, toolId, "read_page", {
      urls: [`${base}/article`, `${base}/missing`, "http://10.1.2.3/"],
      max_chars: 8_000,
    });
    expect(outcome).toMatchObject({
      ok: true,
      data: {
        pages: [
          { url: `${base}/article`, ok: true, title: "Tides", error: null },
          { url: `${base}/missing`, ok: false, error: "HTTP_404" },
          { url: "http://10.1.2.3/", ok: false, error: "SSRF_BLOCKED" },
        ],
      },
    });
    const first = (outcome as { data: { pages: { content: string }[] } }).data.pages[0];
    expect(first?.content).toContain("The moon pulls the sea.");
    expect(first?.content).not.toContain("menu");
  });

  it("read_page over the plugin cap fails the tool with WEB_INVALID_REQUEST", async () => {
    const { host, toolId } = await newHost({ web: { enabled: true } });
    const outcome = await host.invoke(USER, toolId, "read_page", {
      urls: [`${base}/article`],
      max_chars: 8_001,
    });
    expect(outcome).toMatchObject({
      ok: false,
      error: expect.stringMatching(/'max_chars' must be an integer from 1 to 8000/),
      raw: { data: { code: -32524, errorCode: "WEB_INVALID_REQUEST" } },
    });
  });

  it("account_token reaches the default and a named google account with the minted token", async () => {
    const { host, toolId } = await newHost({ credentials: {} });
    const byDefault = await host.invoke(USER, toolId, "account_token", {});
    expect(byDefault).toMatchObject({
      ok: true,
      data: {
        accounts: [
          { account_id: "g-work", is_default: false },
          { account_id: "g-home", is_default: true },
        ],
        account_id: "g-home",
        preview: "ya29…1234",
      },
    });
    const named = await host.invoke(USER, toolId, "account_token", { account: "g-work" });
    expect(named).toMatchObject({ ok: true, data: { account_id: "g-work", preview: "ya29…8888" } });
  });

  it("without a web grant or a credentials token the plugin sees -32521 and -32061", async () => {
    const { host, toolId } = await newHost({});
    const web = await host.invoke(USER, toolId, "read_page", { urls: [`${base}/article`] });
    expect(web).toMatchObject({
      ok: false,
      error: expect.stringMatching(/has not granted web/),
      raw: { data: { code: -32521, errorCode: "WEB_NOT_GRANTED" } },
    });
    const accounts = await host.invoke(USER, toolId, "account_token", {});
    expect(accounts).toMatchObject({
      ok: false,
      error: expect.stringMatching(
        /no credentials_token covering its declared providers \(google\)/,
      ),
      raw: { data: { code: -32061, errorCode: "CREDENTIALS_NOT_GRANTED" } },
    });
  });
});
