// Replays what the published @anna-ai/cli (0.1.30–0.1.47) sends for login, tokens, executa
// publishing and binary uploads, exactly as shared/spec/real-world-cli.md §0.2, §1, §2, §4,
// §9.3–9.5 and §B describe
// it, over real HTTP, and checks every field and status it reads.
import { serve } from "@hono/node-server";
import { createHash } from "node:crypto";
import { canonicalJson } from "@anna-ai/executa-host";
import type { AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";
import { binaryServer, sha256 } from "./helpers/binaries.js";
import { harness, sessionCookie } from "./helpers/harness.js";
import { hubHttp } from "./helpers/hub-http.js";

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

describe.each(DIALECTS)("published CLI executa publish contract on $name", (d) => {
  it.skipIf(d.skip)(
    "replays `executa publish` (§9.3) twice, then list/status/versions/unpublish/yank/delete (§9.5) and a skill",
    async () => {
      const h = harness(await d.open());
      const hub = await hubHttp(h);
      const host = canonical(hub.url);
      const { pat } = await hub.developer("cli-pub");
      // NexusClient (§0.2): Bearer PAT, user-agent, accept; JSON only when there is a body.
      const send = async (method: string, path: string, body?: unknown) => {
        const headers: Record<string, string> = {
          authorization: `Bearer ${pat}`,
          "user-agent": "anna-app-cli",
          accept: "application/json",
        };
        if (body !== undefined) headers["content-type"] = "application/json";
        const res = await fetch(`${host}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return {
          status: res.status,
          ok: res.ok,
          hit: res.headers.get("x-anna-idempotent") === "hit",
          body: (text === "" ? null : JSON.parse(text)) as Record<string, unknown> & unknown[],
        };
      };
      const sha = (s: string) => createHash("sha256").update(s).digest("hex");
      const executaJson = {
        slug: "weather",
        name: "Weather",
        version: "1.0.0",
        executa_type: "tool",
        description: "Forecasts",
        distribution: { type: "uv", package_name: "weather-tool", executable_name: "weather" },
      };
      const idempotencyKey = sha(`${host}|weather|tool`);

      // E1 → E2 (first publish, no cache).
      const e1 = await send("POST", "/api/v1/executas/my/drafts", {
        name: "Weather",
        executa_type: "tool",
        slug_override: "weather",
        idempotency_key: idempotencyKey,
      });
      expect(e1.ok).toBe(true);
      expect(typeof e1.body.id).toBe("number");
      expect(typeof e1.body.tool_id).toBe("string");
      expect(typeof e1.body.payload).toBe("object");
      const finalPayload = {
        ...(e1.body.payload as object),
        name: "Weather",
        description: "Forecasts",
        executa_type: "tool",
        slug: "weather",
        version: "1.0.0",
        distribution_type: "uv",
        package_name: "weather-tool",
        executable_name: "weather",
      };
      const e2 = await send("POST", `/api/v1/executas/my/drafts/${String(e1.body.id)}/commit`, {
        payload: finalPayload,
      });
      expect(e2.ok).toBe(true);
      const executaId = e2.body.executa_id as number;
      expect(typeof executaId).toBe("number");
      expect(e2.body.tool_id).toBe(e1.body.tool_id);
      const toolId = e2.body.tool_id as string;

      const publish = async (version: string) => {
        // E5 (0.1.47 adds `version`), E4, E6 if needed, E8 with content_hash, E4, E7.
        const json = { ...executaJson, version };
        const e5 = await send("PUT", `/api/v1/executas/my/tools/${executaId}`, {
          name: "Weather",
          description: "Forecasts",
          distribution_type: "uv",
          package_name: "weather-tool",
          executable_name: version === "1.0.0" ? "weather" : "weather2",
          version,
        });
        expect(e5.ok).toBe(true);
        const e4 = await send("GET", `/api/v1/executas/my/tools/${executaId}/detail`);
        for (const k of ["id", "tool_id", "name", "executa_type", "visibility", "is_published"]) {
          expect(e4.body).toHaveProperty(k);
        }
        if (e4.body.visibility !== "app_bundled") {
          const e6 = await send("POST", `/api/v1/executas/my/tools/${executaId}/visibility`, {
            visibility: "app_bundled",
          });
          expect(e6.ok).toBe(true);
        }
        // §3.2: sha256 of the canonical executa.json after the bump.
        const contentHash = sha(canonicalJson(json));
        const e8 = await send(
          "POST",
          `/api/v1/executas/my/tools/${executaId}/versions?content_hash=${contentHash}`,
          { version },
        );
        expect(e8.ok).toBe(true);
        const final = await send("GET", `/api/v1/executas/my/tools/${executaId}/detail`);
        expect(final.body.visibility).toBe("app_bundled");
        const e7 = await send("GET", `/api/v1/executas/my/tools/${executaId}/versions`);
        expect(Array.isArray(e7.body)).toBe(true);
        const latest = e7.body[0] as Record<string, unknown>;
        expect(typeof latest.id).toBe("number");
        expect(latest.version).toBe(version);
        expect(typeof latest.content_hash).toBe("string");
        expect(typeof latest.in_published_app).toBe("boolean");
        return { e8 };
      };
      await publish("1.0.0");
      // A retried publish of the same version is answered `hit` and creates nothing.
      const again = await publish("1.0.0");
      expect(again.e8.hit).toBe(true);
      await publish("1.0.1");

      // After `executa cache-clear`, E1 with the same key says "already committed".
      const retry = await send("POST", "/api/v1/executas/my/drafts", {
        name: "Weather",
        executa_type: "tool",
        slug_override: "weather",
        idempotency_key: idempotencyKey,
      });
      expect(retry.hit).toBe(true);
      expect(retry.body.id as number).toBeLessThan(0);
      expect((retry.body.payload as Record<string, unknown>).committed_executa_id).toBe(executaId);
      expect(retry.body.tool_id).toBe(toolId);

      // §9.5: E3 is a bare array the CLI resolves refs in.
      const e3 = await send("GET", "/api/v1/executas/my/tools");
      expect(Array.isArray(e3.body)).toBe(true);
      expect(e3.body[0]).toMatchObject({
        id: executaId,
        tool_id: toolId,
        visibility: "app_bundled",
        executa_type: "tool",
      });
      expect(toolId.split("-")).toContain("weather");

      // yank weather@1.0.1: E7 → E9.
      const versions = (await send("GET", `/api/v1/executas/my/tools/${executaId}/versions`))
        .body as {
        id: number;
        version: string;
      }[];
      const v101 = versions.find((v) => v.version === "1.0.1")!;
      expect(
        (await send("DELETE", `/api/v1/executas/my/tools/${executaId}/versions/${v101.id}`)).ok,
      ).toBe(true);
      // E10 unpublish: no body, reads `visibility`.
      const e10 = await send("POST", `/api/v1/executas/my/tools/${executaId}/unpublish`);
      expect(e10.body.visibility).toBe("private");
      // E11 delete: 200 or 204; a later E4 on the cached id is 404 (the CLI re-mints).
      expect([200, 204]).toContain(
        (await send("DELETE", `/api/v1/executas/my/tools/${executaId}`)).status,
      );
      expect((await send("GET", `/api/v1/executas/my/tools/${executaId}/detail`)).status).toBe(404);
      // E7 on a missing id is a 404 the CLI allows (= []).
      expect((await send("GET", `/api/v1/executas/my/tools/${executaId}/versions`)).status).toBe(
        404,
      );

      // A skill: E1 → E2 with skill_content + execution_mode, E13, E12, E14; versions via E7.
      const s1 = await send("POST", "/api/v1/executas/my/drafts", {
        name: "Coach",
        executa_type: "skill",
        slug_override: "coach",
        idempotency_key: sha(`${host}|coach|skill`),
      });
      const s2 = await send("POST", `/api/v1/executas/my/drafts/${String(s1.body.id)}/commit`, {
        payload: {
          ...(s1.body.payload as object),
          name: "Coach",
          executa_type: "skill",
          slug: "coach",
          version: "0.1.0",
          skill_content: "---\nname: coach\n---\nBe kind.\n",
          execution_mode: "prompt",
        },
      });
      const skillId = s2.body.executa_id as number;
      expect(String(s2.body.tool_id)).toMatch(/^skill-cli-pub-coach-/);
      const e13 = await send("PUT", `/api/v1/executas/my/skills/${skillId}`, {
        name: "Coach",
        skill_content: "---\nname: coach\n---\nBe kinder.\n",
        version: "0.1.0",
        skill_execution_mode: "prompt",
      });
      expect(e13.ok).toBe(true);
      const e12 = await send("GET", `/api/v1/executas/my/skills/${skillId}/detail`);
      expect(e12.body.visibility).toBe("private");
      const e14 = await send("POST", `/api/v1/executas/my/skills/${skillId}/visibility`, {
        visibility: "app_bundled",
      });
      expect(e14.ok).toBe(true);
      const skillVersions = await send("GET", `/api/v1/executas/my/tools/${skillId}/versions`);
      expect((skillVersions.body as { version: string }[]).map((v) => v.version)).toEqual([
        "0.1.0",
      ]);
    },
  );
});

describe.each(DIALECTS)("published CLI 0.1.47 binary upload contract on $name", (d) => {
  it.skipIf(d.skip)(
    "answers B1, B3–B5 and B6–B8 with the fields the CLI reads, the way it sends them",
    async () => {
      const s = await binaryServer(await d.open());
      const { pat, toolId } = await s.tool("cli47");
      const host = s.hub.url;
      const dev = `${host}/api/v1/anna-apps/dev`;
      const tool = encodeURIComponent(toolId);
      const client = (method: string, path: string, body?: unknown) =>
        fetch(`${dev}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${pat}`,
            "user-agent": "anna-app-cli",
            accept: "application/json",
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });

      // B1: NexusClient, `{tool_id}` → reads `upload_token`.
      const b1 = await client("POST", "/upload-session/mint", { tool_id: toolId });
      expect(b1.ok).toBe(true);
      const token = ((await b1.json()) as { upload_token: string }).upload_token;
      expect(typeof token).toBe("string");

      // B3: raw fetch, Bearer upload token, accept json, no user-agent override.
      const bytes = Buffer.from("0123456789");
      const raw = (path: string, init: RequestInit) =>
        fetch(`${dev}/executas/${tool}/binaries${path}`, {
          ...init,
          headers: {
            authorization: `Bearer ${token}`,
            accept: "application/json",
            ...init.headers,
          },
        });
      const b3 = await raw("/init", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          executa_version: "1.0.0",
          assets: {
            "linux-x86_64": {
              filename: "g.tar.gz",
              sha256: sha256(bytes),
              byte_size: bytes.length,
              format: "tar.gz",
            },
          },
          dry_run: false,
        }),
      });
      expect(b3.ok).toBe(true);
      const plan = (await b3.json()) as {
        upload_id: string;
        assets: Record<
          string,
          { status: string; part_size: number; part_count: number; uploaded_parts?: number[] }
        >;
      };
      const a = plan.assets["linux-x86_64"]!;
      expect(a.status).not.toBe("exists");
      expect(Array.isArray(a.uploaded_parts)).toBe(true);

      // B4: the range [i*part_size, …) as application/octet-stream; the CLI reads nothing.
      for (let i = 0; i < a.part_count; i++) {
        const b4 = await raw(
          `/${encodeURIComponent(plan.upload_id)}/part?platform=linux-x86_64&index=${i}`,
          {
            method: "POST",
            headers: { "content-type": "application/octet-stream" },
            body: new Uint8Array(bytes.subarray(i * a.part_size, (i + 1) * a.part_size)),
          },
        );
        expect(b4.ok).toBe(true);
      }
      // B5: `{}` → `assets[p].sha256` (a string it slices) and `url`.
      const b5 = await raw(`/${encodeURIComponent(plan.upload_id)}/finalize`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(b5.ok).toBe(true);
      const fin = (await b5.json()) as { assets: Record<string, { sha256: string; url: string }> };
      expect(fin.assets["linux-x86_64"]!.sha256.slice(0, 12)).toBe(sha256(bytes).slice(0, 12));
      expect(typeof fin.assets["linux-x86_64"]!.url).toBe("string");

      // Errors of B3–B5 carry `detail.code` + `detail.message`.
      const bad = await raw(
        `/${encodeURIComponent(plan.upload_id)}/part?platform=linux-x86_64&index=99`,
        {
          method: "POST",
          headers: { "content-type": "application/octet-stream" },
          body: new Uint8Array([1]),
        },
      );
      const err = (await bad.json()) as { detail: { code: string; message: string } };
      expect(typeof err.detail.code).toBe("string");
      expect(typeof err.detail.message).toBe("string");

      // B6 → an object whose `trusted_publishers.length` is read; B7 without `environment`; B8.
      const path = `/executas/${tool}/trusted-publishers`;
      const b6 = (await (await client("GET", path)).json()) as { trusted_publishers: unknown[] };
      expect(b6.trusted_publishers.length).toBe(0);
      const b7 = await client("POST", path, { repository: "acme/grep", workflow: "publish.yml" });
      expect(b7.ok).toBe(true);
      const row = (await b7.json()) as Record<string, unknown>;
      expect(Object.keys(row)).toEqual(
        expect.arrayContaining(["id", "repository", "workflow", "environment", "last_used_at"]),
      );
      const b8 = await client("DELETE", `${path}/${String(row.id)}`);
      expect(b8.ok).toBe(true);
    },
  );
});
