// The storage token of the real storage modes over real HTTP: against a real Nexus (lazy mint,
// one mint for concurrent calls, renewal 30 s before expiry, a revoked PAT), and against a
// scripted server for what a Nexus does not do on demand (a 404 naming the slug, which the
// published CLI answers by registering the executa and retrying once; a server without the
// endpoint; a 500).
import { afterEach, describe, expect, it } from "vitest";
import { NexusClient } from "../../src/account/nexus-client.js";
import {
  devStorageTokens,
  EXECUTA_REGISTER_PATH,
  STORAGE_MINT_PATH,
} from "../../src/real-storage/dev-storage-tokens.js";
import { createRestStorage } from "../../src/real-storage/storage-rest.js";
import { scriptedServer, type ScriptedServer } from "../account/scripted-server.js";
import { startStorageNexus, type StorageNexus } from "./storage-nexus.js";

const CTX = {
  userId: "1",
  toolId: "notes",
  invokeId: "i",
  pluginName: "p",
  tool: "t",
  deadlineMs: Date.now() + 60_000,
  signal: new AbortController().signal,
  grant: {},
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function nexus(): Promise<StorageNexus> {
  const n = await startStorageNexus();
  closers.push(() => n.close());
  return n;
}

async function scripted(...args: Parameters<typeof scriptedServer>): Promise<ScriptedServer> {
  const s = await scriptedServer(...args);
  closers.push(() => s.close());
  return s;
}

async function rpcError(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    const err = e as { code: number; message: string; data?: { errorCode?: string } };
    return { code: err.code, errorCode: err.data?.errorCode, message: err.message };
  }
  throw new Error("expected a storage error");
}

describe("storage tokens against a real Nexus", () => {
  it("mints on the first call only, once for concurrent calls, and again near expiry", async () => {
    const n = await nexus();
    const { pat } = await n.developer("dev@example.com");
    let now = Date.now();
    const seen: string[] = [];
    const tokens = devStorageTokens({
      client: new NexusClient({ host: n.url, pat }),
      appSlug: "executa-notes",
      toolId: "notes",
      now: () => now,
      onToken: (t) => seen.push(t),
    });
    const { storage } = createRestStorage({ host: n.url, tokens });
    expect(tokens.minted).toBe(0);
    await Promise.all([
      storage.set({ key: "a", value: 1, scope: "tool" }, CTX),
      storage.set({ key: "b", value: 2, scope: "tool" }, CTX),
      storage.get({ key: "a", scope: "tool" }, CTX),
    ]);
    expect(tokens.minted).toBe(1);
    now += 569_000; // 31 s left: still used
    await storage.get({ key: "a", scope: "tool" }, CTX);
    expect(tokens.minted).toBe(1);
    now += 2_000; // 29 s left: renewed first
    expect((await storage.get({ key: "b", scope: "tool" }, CTX)).value).toBe(2);
    expect(tokens.minted).toBe(2);
    expect(new Set(seen).size).toBe(2);
  });

  it("takes a new token when the server says this one's call budget (max_calls) is spent", async () => {
    const n = await nexus();
    const { pat } = await n.developer("dev@example.com");
    const tokens = devStorageTokens({
      client: new NexusClient({ host: n.url, pat }),
      appSlug: "executa-notes",
      toolId: "notes",
    });
    const { storage } = createRestStorage({ host: n.url, tokens });
    await storage.set({ key: "a", value: 1, scope: "tool" }, CTX);
    // The server counts 200 calls per token; a dev session goes on past them.
    for (let i = 0; i < 200; i++) await storage.get({ key: "a", scope: "tool" }, CTX);
    expect(tokens.minted).toBe(2);
    expect((await storage.get({ key: "a", scope: "tool" }, CTX)).value).toBe(1);
  }, 60_000);

  it("turns a revoked PAT into one storage error that says what to do", async () => {
    const n = await nexus();
    const dev = await n.developer("dev@example.com");
    const tokens = devStorageTokens({
      client: new NexusClient({ host: n.url, pat: dev.pat }),
      appSlug: "executa-notes",
      toolId: "notes",
    });
    const { storage } = createRestStorage({ host: n.url, tokens });
    await storage.set({ key: "a", value: 1, scope: "tool" }, CTX);
    await n.stores.tokens.revoke(dev.userId, dev.patId, Date.now());
    // The token dies with its PAT; the re-mint is refused too.
    const err = await rpcError(storage.get({ key: "a", scope: "tool" }, CTX));
    expect(err).toMatchObject({ code: -32029, errorCode: "STORAGE_UPSTREAM_ERROR" });
    expect(err.message).toMatch(
      /was revoked; run 'anna-app login --host http:\/\/127\.0\.0\.1:\d+'/,
    );
  });

  it("answers a scope the token does not allow with -32021", async () => {
    const n = await nexus();
    const { pat } = await n.developer("dev@example.com");
    const tokens = devStorageTokens({
      client: new NexusClient({ host: n.url, pat }),
      appSlug: "executa-notes",
      toolId: "notes",
      allowedScopes: ["tool"],
    });
    const { storage } = createRestStorage({ host: n.url, tokens });
    const err = await rpcError(storage.get({ key: "a", scope: "user" }, CTX));
    expect(err).toMatchObject({ code: -32021, errorCode: "STORAGE_NOT_GRANTED" });
    expect(err.message).toMatch(/does not permit scope='user'/);
  });
});

describe("storage tokens against a scripted server", () => {
  it("registers the executa on a 404 naming the slug and retries the mint once", async () => {
    const s = await scripted((req, i) => {
      if (req.url === STORAGE_MINT_PATH && i === 0) {
        return { status: 404, body: { detail: "app slug executa-notes not found" } };
      }
      if (req.url === EXECUTA_REGISTER_PATH)
        return { status: 200, body: { slug: "executa-notes" } };
      return { status: 200, body: { storage_token: "tok-2", expires_in: 600 } };
    });
    const tokens = devStorageTokens({
      client: new NexusClient({ host: s.url, pat: "anna_pat_x" }),
      appSlug: "executa-notes",
      toolId: "notes",
      allowedScopes: ["user", "app", "tool"],
    });
    expect(await tokens.token()).toBe("tok-2");
    expect(s.seen.map((r) => r.url)).toEqual([
      STORAGE_MINT_PATH,
      EXECUTA_REGISTER_PATH,
      STORAGE_MINT_PATH,
    ]);
    expect(JSON.parse(s.seen[0]!.body)).toEqual({
      app_slug: "executa-notes",
      executa_tool_id: "notes",
      allowed_scopes: ["user", "app", "tool"],
      ttl_seconds: 600,
    });
    expect(JSON.parse(s.seen[1]!.body)).toEqual({ tool_id: "notes", slug: "executa-notes" });
    expect(s.seen[0]!.headers.authorization).toBe("Bearer anna_pat_x");
  });

  it("says the server does not expose the mint (-32021) on any other 404", async () => {
    const s = await scripted(() => ({ status: 404, body: { detail: { code: "not_found" } } }));
    const tokens = devStorageTokens({
      client: new NexusClient({ host: s.url, pat: "anna_pat_x" }),
      appSlug: "executa-notes",
      toolId: "notes",
    });
    const err = await rpcError(tokens.token());
    expect(err).toMatchObject({ code: -32021, errorCode: "STORAGE_NOT_GRANTED" });
    expect(err.message).toMatch(/does not expose POST \/api\/v1\/anna-apps\/dev\/storage\/mint/);
    expect(s.seen).toHaveLength(1);
  });

  it("maps other failures to -32029 and a storage REST status without a catalogued body by status", async () => {
    const failing = await scripted(() => ({ status: 500, body: "boom" }));
    const err = await rpcError(
      devStorageTokens({
        client: new NexusClient({ host: failing.url, pat: "anna_pat_x" }),
        appSlug: "a",
      }).token(),
    );
    expect(err).toMatchObject({ code: -32029 });
    expect(err.message).toMatch(/failed on the server \(500\): boom/);

    const s = await scripted((req) =>
      req.url.startsWith(STORAGE_MINT_PATH)
        ? { status: 200, body: { storage_token: "t", expires_in: 600 } }
        : req.method === "DELETE"
          ? { status: 204 }
          : { status: 412, body: { detail: "etag mismatch" } },
    );
    const { storage } = createRestStorage({
      host: s.url,
      tokens: devStorageTokens({
        client: new NexusClient({ host: s.url, pat: "anna_pat_x" }),
        appSlug: "a",
      }),
    });
    expect(await rpcError(storage.set({ key: "k", value: 1, scope: "app" }, CTX))).toMatchObject({
      code: -32023,
    });
    expect(await storage.delete({ key: "k", scope: "app" }, CTX)).toEqual({ deleted: true });
    const put = s.seen.find((r) => r.method === "PUT")!;
    expect(put.url).toBe("/api/v1/storage/kv?scope=app");
    expect(JSON.parse(put.body)).toEqual({ key: "k", value: 1 });
    expect(put.headers.authorization).toBe("Bearer t");
    expect(s.seen.find((r) => r.method === "DELETE")!.url).toBe(
      "/api/v1/storage/kv?key=k&scope=app",
    );
  });
});
