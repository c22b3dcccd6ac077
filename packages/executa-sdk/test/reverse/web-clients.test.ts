// ctx.web and ctx.accounts: the wire shapes the host reads (R157, R67–R68), their typed errors
// and local refusals, against the in-memory host.
import { RpcError } from "@anna-ai/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import type { HostCallError } from "../../src/index.js";
import {
  CredentialsClient,
  CredentialsError,
  WebClient,
  WebError,
  bindInvoke,
  definePlugin,
  p,
  type ToolContext,
} from "../../src/index.js";
import { startPlugin, type MemoryHost } from "../helpers/memory-host.js";

let body: (ctx: ToolContext) => Promise<unknown> = () => Promise.resolve(null);

const plugin = definePlugin({
  manifest: { name: "web-clients", version: "1.0.0", description: "Web/credentials client tests." },
  tools: {
    run: {
      description: "Runs the test's body.",
      parameters: { label: p.string({ default: "" }) },
      handler: (_args, ctx) => body(ctx),
    },
  },
});

let running: MemoryHost | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

function start(): MemoryHost {
  running = startPlugin(plugin);
  return running;
}

type Seen = { method: string; params: Record<string, unknown> };

function answerAll(host: MemoryHost["host"], answers: Record<string, unknown>): Seen[] {
  const seen: Seen[] = [];
  for (const [method, answer] of Object.entries(answers)) {
    host.onRequest(method, (params) => {
      seen.push({ method, params: params as Record<string, unknown> });
      return answer;
    });
  }
  return seen;
}

describe("ctx.web", () => {
  it("sends snake_case params with the invoke stamped, and returns the host's answer", async () => {
    const { host, invoke } = start();
    const seen = answerAll(host, {
      "web/search": { results: [], provider_tier: "basic", quota_consumed: 0 },
      "web/fetch": { pages: [{ url: "https://a.example/", ok: true }], quota_consumed: 0 },
      "web/image_search": { results: [], quota_consumed: 0 },
      "web/image_fetch": { path: "web/images/x.png", get_url: "https://g/x" },
    });
    body = async (ctx) => {
      await ctx.web.search("tides", {
        maxResults: 3,
        searchDepth: "advanced",
        includeDomains: ["noaa.gov"],
      });
      const fetched = await ctx.web.fetch("https://a.example/", { maxChars: 500, format: "text" });
      await ctx.web.imageSearch("otters", { aspect: "wide", minWidth: 640 });
      await ctx.web.imageFetch("https://a.example/x.png", { maxBytes: 1024 });
      return fetched.pages[0]?.ok;
    };
    const result = await invoke("run", {}, { invoke_id: "inv-w" });
    expect(result.data).toBe(true);
    const stamp = {
      context: { invoke_id: "inv-w" },
      metadata: { executa_invoke_id: "inv-w", tool: "run" },
    };
    expect(seen).toEqual([
      {
        method: "web/search",
        params: expect.objectContaining({
          query: "tides",
          max_results: 3,
          search_depth: "advanced",
          include_domains: ["noaa.gov"],
          ...stamp,
        }),
      },
      {
        method: "web/fetch",
        params: expect.objectContaining({
          urls: ["https://a.example/"],
          max_chars: 500,
          format: "text",
        }),
      },
      {
        method: "web/image_search",
        params: expect.objectContaining({ query: "otters", aspect: "wide", min_width: 640 }),
      },
      {
        method: "web/image_fetch",
        params: expect.objectContaining({ url: "https://a.example/x.png", max_bytes: 1024 }),
      },
    ]);
    // Unset options are not sent at all.
    expect(Object.keys(seen[1]?.params ?? {}).sort()).toEqual(
      ["context", "format", "max_chars", "metadata", "urls"].sort(),
    );
  });

  it("raises WebError with the wire code, and a local -32525 on timeout", async () => {
    const { host, invoke } = start();
    host.onRequest("web/search", () => {
      throw new RpcError(-32521, "web access is not granted", { reason: "WEB_GRANT_DISABLED" });
    });
    host.onRequest("web/fetch", () => new Promise(() => undefined));
    const errors: unknown[] = [];
    body = async (ctx) => {
      await ctx.web.search("x").catch((e: unknown) => errors.push(e));
      await ctx.web.fetch(["https://a.example/"], { timeoutMs: 20 }).catch((e: unknown) => {
        errors.push(e);
      });
      return null;
    };
    await invoke("run");
    expect(errors[0]).toBeInstanceOf(WebError);
    expect(errors[0]).toMatchObject({
      code: -32521,
      errorCode: "WEB_NOT_GRANTED",
      method: "web/search",
      data: { reason: "WEB_GRANT_DISABLED" },
    });
    expect(errors[1]).toBeInstanceOf(WebError);
    expect(errors[1]).toMatchObject({ code: -32525, errorCode: "WEB_TIMEOUT" });
  });
});

describe("ctx.accounts", () => {
  it("lists accounts and gets a token for the default or a named account", async () => {
    const { host, invoke } = start();
    const accounts = [
      {
        account_id: "a1",
        email: "w@x",
        label: null,
        is_default: true,
        status: "active",
        scopes: [],
      },
    ];
    const seen = answerAll(host, {
      "credentials/listAccounts": { accounts },
      "credentials/getToken": { access_token: "t", account_id: "a1", expires_at: "2030-01-01" },
    });
    body = async (ctx) => {
      const listed = await ctx.accounts.listAccounts("google");
      const token = await ctx.accounts.getToken("google");
      await ctx.accounts.getToken("google", { accountId: "a1" });
      return { listed, token: token.account_id };
    };
    const result = await invoke("run", {}, { invoke_id: "inv-c" });
    expect(result.data).toEqual({ listed: accounts, token: "a1" });
    expect(seen.map((s) => [s.method, s.params["provider"], s.params["account_id"]])).toEqual([
      ["credentials/listAccounts", "google", undefined],
      ["credentials/getToken", "google", undefined],
      ["credentials/getToken", "google", "a1"],
    ]);
    expect("account_id" in (seen[1]?.params ?? {})).toBe(false);
  });

  it("raises CredentialsError: the wire's -32061 and the local -32064 timeout", async () => {
    const { host, invoke } = start();
    host.onRequest("credentials/getToken", () => {
      throw new RpcError(-32061, "needs re-auth");
    });
    host.onRequest("credentials/listAccounts", () => new Promise(() => undefined));
    const errors: unknown[] = [];
    body = async (ctx) => {
      await ctx.accounts.getToken("google").catch((e: unknown) => errors.push(e));
      await ctx.accounts
        .listAccounts("google", { timeoutMs: 20 })
        .catch((e: unknown) => errors.push(e));
      return null;
    };
    await invoke("run");
    expect(errors[0]).toBeInstanceOf(CredentialsError);
    expect(errors[0]).toMatchObject({ code: -32061, errorCode: "CREDENTIALS_NOT_GRANTED" });
    expect(errors[1]).toMatchObject({ code: -32064, errorCode: "CREDENTIALS_TIMEOUT" });
  });

  it("fails both families locally after a non-2.0 initialize, and outside serve()", async () => {
    const { host, invoke } = start();
    await host.request("initialize", { protocolVersion: "1.1" });
    body = async (ctx) => ({
      web: await ctx.web.search("x").catch((e: HostCallError) => `${e.name} ${e.code}`),
      accounts: await ctx.accounts
        .getToken("google")
        .catch((e: HostCallError) => `${e.name} ${e.code}`),
    });
    const result = await invoke("run");
    expect(result.data).toEqual({ web: "WebError -32527", accounts: "CredentialsError -32061" });
    await running?.close();
    running = undefined;
    const free = await bindInvoke({ invokeId: "x", tool: "t" }, () =>
      Promise.all([
        new WebClient().fetch("https://a.example/").catch((e: HostCallError) => e.message),
        new CredentialsClient().listAccounts("google").catch((e: HostCallError) => e.message),
      ]),
    );
    expect(free).toEqual([
      "web/fetch: no host connection (call serve() first)",
      "credentials/listAccounts: no host connection (call serve() first)",
    ]);
  });
});
