// Replays what the published @anna-ai/cli (0.1.30–0.1.47) sends for login and tokens, exactly as
// shared/spec/real-world-cli.md §0.2, §1 and §2 describe it, over real HTTP, and checks every
// field and status it reads.
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";
import { harness, sessionCookie } from "./helpers/harness.js";

useDialectCleanup();

/** The CLI's host canonicalisation: `<protocol>//<hostname>[:<port>]`. */
const canonical = (input: string) => {
  const u = new URL(input);
  return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ""}`;
};

describe.each(DIALECTS)("published CLI login contract on $name", (d) => {
  it.skipIf(d.skip)(
    "logs in with the device flow, then lists, shows scopes and revokes as NexusClient does",
    async () => {
      const h = harness(await d.open());
      const server = serve({ fetch: h.app.fetch, port: 0, hostname: "127.0.0.1" });
      onTestFinished(() => new Promise<void>((r) => server.close(() => r())));
      await new Promise<void>((r) =>
        server.listening ? r() : server.once("listening", () => r()),
      );
      const host = canonical(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}/ignored/path`,
      );

      // §1.2 start: content-type json, no body at all, no auth.
      const start = await fetch(`${host}/api/v1/anna-apps/dev/login/start`, {
        method: "POST",
        headers: { "content-type": "application/json" },
      });
      expect(start.ok).toBe(true);
      const s = (await start.json()) as Record<string, unknown>;
      expect(typeof s.device_code).toBe("string");
      expect(typeof s.user_code).toBe("string");
      expect(typeof s.expires_in).toBe("number");
      const interval = Math.min(Math.max(Number(s.interval) || 5, 2), 15);
      expect(interval).toBe(5);
      // The CLI prints `{host}{verification_uri_complete}`: it must be a path.
      const verify = `${host}${String(s.verification_uri_complete)}`;
      expect(new URL(verify).origin).toBe(host);

      // §1.3 poll: body {device_code}; 202 while pending.
      const poll = () =>
        fetch(`${host}/api/v1/anna-apps/dev/login/poll`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ device_code: s.device_code }),
        });
      expect((await poll()).status).toBe(202);

      // The person opens the printed URL in a browser, signs in and approves (same-origin fetches).
      const page = await fetch(verify);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(String(s.user_code));
      await h.signup("cli@example.com");
      const browser = {
        "content-type": "application/json",
        origin: host,
        "sec-fetch-site": "same-origin",
      };
      const signin = await fetch(`${host}/api/v1/auth/signin`, {
        method: "POST",
        headers: browser,
        body: JSON.stringify({ email: "cli@example.com", password: "correct horse battery" }),
      });
      const cookie = sessionCookie(signin);
      const approve = await fetch(`${host}/api/v1/anna-apps/dev/login/approve`, {
        method: "POST",
        headers: { ...browser, cookie },
        body: JSON.stringify({ user_code: s.user_code }),
      });
      expect(approve.status).toBe(200);

      const done = await poll();
      expect(done.status).toBe(200);
      const p = (await done.json()) as { pat: string; expires_in: number; scopes: unknown };
      expect(typeof p.pat).toBe("string");
      expect(p.expires_in).toBe(90 * 86400);
      expect(Array.isArray(p.scopes)).toBe(true);

      // §0.2 NexusClient headers; §2 token list / scopes / revoke.
      const client = (path: string, init: RequestInit = {}) =>
        fetch(`${host}${path}`, {
          ...init,
          headers: {
            authorization: `Bearer ${p.pat}`,
            "user-agent": "anna-app-cli",
            accept: "application/json",
          },
        });
      const list = (await (await client("/api/v1/anna-apps/dev/tokens")).json()) as {
        tokens: { id: unknown; scopes: unknown; revoked_at: unknown; jti: unknown }[];
      };
      expect(list.tokens).toHaveLength(1);
      const tok = list.tokens[0]!;
      expect(Number.isInteger(tok.id) && (tok.id as number) > 0).toBe(true);
      expect(Array.isArray(tok.scopes)).toBe(true);
      expect(tok.revoked_at).toBeFalsy();
      expect(typeof tok.jti).toBe("string");
      const scopes = (await (await client("/api/v1/anna-apps/dev/tokens/scopes")).json()) as {
        scopes: { name: string; description: string }[];
      };
      expect(
        scopes.scopes.every((x) => typeof x.name === "string" && typeof x.description === "string"),
      ).toBe(true);
      // `token revoke` sends no body and no content-type.
      const revoke = await client(`/api/v1/anna-apps/dev/tokens/${String(tok.id)}/revoke`, {
        method: "POST",
      });
      expect(revoke.status).toBe(204);
      // §0.2: a 401 makes the CLI say "PAT rejected … run anna-app login"; the body says why.
      const after = await client("/api/v1/anna-apps/dev/tokens?include_revoked=true");
      expect(after.status).toBe(401);
      const body = (await after.json()) as { detail: { code: string; message: string } };
      expect(body.detail.code).toBe("token_revoked");

      // account set-handle: PUT {handle} → reads `handle`; errors as detail.code + detail.message.
      const { pat: pat2 } = (await (async () => {
        const s2 = (await (
          await fetch(`${host}/api/v1/anna-apps/dev/login/start`, {
            method: "POST",
            headers: { "content-type": "application/json" },
          })
        ).json()) as { device_code: string; user_code: string };
        await fetch(`${host}/api/v1/anna-apps/dev/login/approve`, {
          method: "POST",
          headers: { ...browser, cookie },
          body: JSON.stringify({ user_code: s2.user_code }),
        });
        return (
          await fetch(`${host}/api/v1/anna-apps/dev/login/poll`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ device_code: s2.device_code }),
          })
        ).json();
      })()) as { pat: string };
      const put = (handle: string) =>
        fetch(`${host}/api/v1/developer/profile/handle`, {
          method: "PUT",
          headers: {
            authorization: `Bearer ${pat2}`,
            "user-agent": "anna-app-cli",
            accept: "application/json",
            "content-type": "application/json",
          },
          body: JSON.stringify({ handle }),
        });
      const ok = await put("cli-dev");
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ handle: "cli-dev" });
      const bad = (await (await put("-x-")).json()) as {
        detail: { code: string; message: string };
      };
      expect(typeof bad.detail.code).toBe("string");
      expect(typeof bad.detail.message).toBe("string");
    },
  );
});
