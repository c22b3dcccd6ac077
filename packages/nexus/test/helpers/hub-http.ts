// The Executa Hub over real HTTP for tests: a harness app listening on 127.0.0.1 (port 0, closed
// when the test ends), developers made straight in the stores with a handle and a PAT, and a
// client that sends what NexusClient sends (Bearer PAT, user-agent, accept, JSON body).
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";
import type { Scope } from "../../src/auth/scopes.js";
import { mintPat } from "../../src/routes/tokens.js";
import type { Harness } from "./harness.js";

export interface HubCall {
  status: number;
  body: unknown;
  hit: boolean;
}

export interface HubHttp {
  url: string;
  /** A Verified Developer with `handle` (null: none) and a PAT with `scopes`. */
  developer(
    handle: string | null,
    scopes?: Scope[],
    opts?: { developer?: boolean; admin?: boolean },
  ): Promise<{ pat: string; userId: number }>;
  call(
    pat: string,
    method: string,
    path: string,
    opts?: { body?: unknown; query?: Record<string, string>; headers?: Record<string, string> },
  ): Promise<HubCall>;
}

let people = 0;

export async function hubHttp(h: Harness): Promise<HubHttp> {
  const server = serve({ fetch: h.app.fetch, port: 0, hostname: "127.0.0.1" });
  onTestFinished(() => new Promise<void>((r) => server.close(() => r())));
  await new Promise<void>((r) => (server.listening ? r() : server.once("listening", () => r())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    async developer(handle, scopes = ["aps:dev", "executas:publish"], opts = {}) {
      const now = h.clock.now();
      const user = await h.stores.users.create(
        {
          email: `hub${++people}@example.com`,
          passwordHash: "x",
          isVerified: true,
          handle,
          developer: opts.developer ?? true,
          isAdmin: opts.admin ?? false,
        },
        now,
      );
      const { pat } = await mintPat(h.stores, {
        userId: user.id,
        scopes,
        label: "test",
        now,
        ttlMs: 90 * 86_400_000,
      });
      return { pat, userId: user.id };
    },
    async call(pat, method, path, opts = {}) {
      const u = new URL(path, url);
      for (const [k, v] of Object.entries(opts.query ?? {})) u.searchParams.set(k, v);
      const headers: Record<string, string> = {
        authorization: `Bearer ${pat}`,
        "user-agent": "anna-app-cli",
        accept: "application/json",
        ...opts.headers,
      };
      let body: string | undefined;
      if (opts.body !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(opts.body);
      }
      const res = await fetch(u, { method, headers, body });
      const text = await res.text();
      return {
        status: res.status,
        body: text === "" ? null : (JSON.parse(text) as unknown),
        hit: res.headers.get("x-anna-idempotent") === "hit",
      };
    },
  };
}
