// Replays what the published @anna-ai/cli (0.1.30–0.1.47) sends for login, tokens, executa and
// app publishing, exactly as shared/spec/real-world-cli.md §0.2, §1, §2, §3, §4 and §9.1–9.5
// describe it, over real HTTP, and checks every field and status it reads.
import { serve } from "@hono/node-server";
import { createHash } from "node:crypto";
import { canonicalJson } from "@anna-ai/executa-host";
import type { AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";
import { harness, sessionCookie } from "./helpers/harness.js";
import { hubHttp } from "./helpers/hub-http.js";
import { appsHttp } from "./helpers/apps-http.js";

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

/** NexusClient (§0.2) against one host: Bearer PAT, user-agent, accept; JSON only with a body. */
function nexusClient(host: string, pat: string) {
  const parse = async (res: Response) => {
    const text = await res.text();
    let body: unknown = null;
    if (text !== "") {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    return {
      status: res.status,
      ok: res.ok,
      hit: res.headers.get("x-anna-idempotent") === "hit",
      body: body as Record<string, unknown> & unknown[],
    };
  };
  const base = {
    authorization: `Bearer ${pat}`,
    "user-agent": "anna-app-cli",
    accept: "application/json",
  };
  return {
    send: async (
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) =>
      parse(
        await fetch(`${host}${path}`, {
          method,
          headers: {
            ...base,
            ...headers,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      ),
    /** A multipart POST: `relative_path` (when given) and `file`, a Blob named `blob`. */
    multipart: async (
      path: string,
      bytes: string | Uint8Array,
      type: string,
      relativePath?: string,
    ) => {
      const form = new FormData();
      if (relativePath !== undefined) form.append("relative_path", relativePath);
      form.append("file", new Blob([bytes], { type }), "blob");
      return parse(await fetch(`${host}${path}`, { method: "POST", headers: base, body: form }));
    },
  };
}

describe.each(DIALECTS)("published CLI apps contract on $name", (d) => {
  it.skipIf(d.skip)(
    "replays `apps publish` (§9.1) with a bundled executa and a UI bundle, submit-review (§9.4), push/cut/release (§9.2) and the §9.5 commands",
    async () => {
      const hub = await appsHttp(d);
      const host = canonical(hub.url);
      const { pat } = await hub.developer("cli-apps");
      const { send, multipart } = nexusClient(host, pat);
      const admin = nexusClient(
        host,
        (await hub.developer(null, ["aps:dev"], { admin: true })).pat,
      );
      const sha = (s: string | Uint8Array) => createHash("sha256").update(s).digest("hex");

      // §9.3 with freeze for the bundled executa (as in the executa contract): E1 → E2 → E5 → E6 → E8.
      const e1 = await send("POST", "/api/v1/executas/my/drafts", {
        name: "Focus Session",
        executa_type: "tool",
        slug_override: "focus-session",
        idempotency_key: sha(`${host}|focus-session|tool`),
      });
      const e2 = await send("POST", `/api/v1/executas/my/drafts/${String(e1.body.id)}/commit`, {
        payload: {
          ...(e1.body.payload as object),
          name: "Focus Session",
          executa_type: "tool",
          slug: "focus-session",
          version: "1.0.0",
          distribution_type: "uv",
          package_name: "focus-session",
        },
      });
      const executaId = e2.body.executa_id as number;
      const toolId = e2.body.tool_id as string;
      await send("POST", `/api/v1/executas/my/tools/${executaId}/visibility`, {
        visibility: "app_bundled",
      });

      // Step 3: `bundled:<h>` replaced everywhere with the minted id; anna-tool-ids.js written first.
      const manifest = {
        schema: 2,
        required_executas: [{ tool_id: toolId }],
        permissions: ["tools.invoke", "storage.read", "storage.write"],
        ui: {
          bundle: { entry: "index.html" },
          views: [{ name: "main", title: "Focus", default: true }],
          host_api: { tools: [`required:${toolId}`], storage: ["read", "write"] },
        },
      };
      const bundleFiles: Record<string, string> = {
        "anna-tool-ids.js": `window.__ANNA_TOOL_IDS__ = {"focus-session":"${toolId}"};`,
        "app.js": "console.log('focus');",
        "index.html":
          "<!doctype html><script src='anna-tool-ids.js'></script><script src='app.js'></script>",
        ".well-known/x.txt": "dotfiles are included",
      };
      const contentType = (p: string) =>
        p.endsWith(".html") ? "text/html" : p.endsWith(".js") ? "text/javascript" : "text/plain";
      const paths = Object.keys(bundleFiles).sort((a, b) => a.localeCompare(b));
      const fileMap = Object.fromEntries(
        paths.map((p) => [
          p,
          {
            sha256: sha(bundleFiles[p] as string),
            byte_size: Buffer.byteLength(bundleFiles[p] as string),
            content_type: contentType(p),
          },
        ]),
      );
      const fingerprint = sha(canonicalJson(fileMap));
      const bundleHash = (version: string) => {
        const hash = createHash("sha256").update(canonicalJson({ version, manifest }));
        for (const p of Object.keys(bundleFiles).sort())
          hash.update(`\n${p}\0${sha(bundleFiles[p] as string)}`);
        return hash.digest("hex");
      };
      const initBody = {
        file_map: fileMap,
        total_size_bytes: Object.values(fileMap).reduce((n, e) => n + e.byte_size, 0),
        file_count: paths.length,
        bundle_format: "static-spa",
        entry_path: "index.html",
        external_origins: [],
      };
      /** A10/A17 → A11/A18 × N (4 at a time; 0.1.47 skips `skip_upload`) → A12/A19. */
      const uploadBundle = async (base: string) => {
        const init = await send("POST", `${base}/init`, initBody);
        expect(init.ok).toBe(true);
        const entries = init.body.files as {
          relative_path: string;
          proxy_upload_url?: string;
          skip_upload?: boolean;
        }[];
        for (const p of paths) {
          const entry = entries.find((e) => e.relative_path === p);
          expect(entry, `server did not return an upload URL for ${p}`).toBeDefined();
          if (!entry?.skip_upload) expect(typeof entry?.proxy_upload_url).toBe("string");
        }
        const todo = paths.filter((p) => !entries.find((e) => e.relative_path === p)?.skip_upload);
        for (let i = 0; i < todo.length; i += 4) {
          const batch = await Promise.all(
            todo
              .slice(i, i + 4)
              .map((p) => multipart(`${base}/file`, bundleFiles[p] as string, contentType(p), p)),
          );
          for (const r of batch) expect(r.ok).toBe(true);
        }
        const fin = await send("POST", `${base}/finalize`, { skip_remote_check: false });
        expect(fin.ok).toBe(true);
        return { init, fin, skipped: paths.length - todo.length };
      };

      // §9.1 step 4: A1 (404 or [] = not found) → A2.
      const a1 = await send("GET", "/api/v1/developer/apps?slug=focus-flow");
      expect(a1.ok).toBe(true);
      expect(a1.body).toEqual([]);
      const a2 = await send("POST", "/api/v1/developer/apps", {
        slug: "focus-flow",
        name: "Focus Flow",
        category: "productivity",
        tagline: "Deep work",
      });
      expect(a2.status).toBe(201);
      const appId = a2.body.id as number;
      expect(typeof appId).toBe("number");
      expect(a2.body).toMatchObject({ slug: "focus-flow", handle: "cli-apps" });
      const apps = `/api/v1/developer/apps/${appId}`;

      // Steps 5–6: A7 with content_hash; `id` present, and on the retried call too (hit).
      const a7 = await send("POST", `${apps}/versions?content_hash=${bundleHash("1.0.0")}`, {
        version: "1.0.0",
        changelog: "First",
        manifest,
      });
      expect(a7.ok).toBe(true);
      expect(a7.hit).toBe(false);
      expect(typeof a7.body.id).toBe("number");
      const a7again = await send("POST", `${apps}/versions?content_hash=${bundleHash("1.0.0")}`, {
        version: "1.0.0",
        manifest,
      });
      expect(a7again.hit).toBe(true);
      expect(a7again.body.id).toBe(a7.body.id);
      const versionBase = `${apps}/versions/${String(a7.body.id)}/bundle`;

      // Step 7: A9 (404 allowed) → A10 → A11 × N → A12; a rerun sees the same fingerprint and skips.
      expect((await send("GET", versionBase)).status).toBe(404);
      const first = await uploadBundle(versionBase);
      expect(first.fin.body).toMatchObject({
        status: "bundle_ready",
        file_count: 4,
        sha256_manifest: fingerprint,
      });
      expect(typeof first.fin.body.total_size_bytes).toBe("number");
      const a9 = await send("GET", versionBase);
      expect(a9.body).toMatchObject({ status: "bundle_ready", sha256_manifest: fingerprint });

      // 0.1.47 listing sync: A26 × N → A4 → A25, then A3.
      const png = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(32, 1)]);
      const a26 = await multipart(`${apps}/screenshots`, png, "image/png");
      expect(a26.ok).toBe(true);
      const shot = a26.body.screenshot_url as string;
      expect(typeof shot).toBe("string");
      const a4 = await send("PATCH", apps, {
        name: "Focus Flow",
        category: "productivity",
        tagline: "Deep work",
        cover_url: "",
        homepage_url: "https://focus.example",
        screenshots: ["https://focus.example/one.png", shot],
      });
      expect(a4.ok).toBe(true);
      const a25 = await multipart(`${apps}/logo`, png, "image/png");
      expect(typeof a25.body.logo_url).toBe("string");
      // Step 8: A3 → status, and the listing as synced (the logo written by the server itself).
      const a3 = await send("GET", apps);
      expect(a3.body).toMatchObject({
        id: appId,
        slug: "focus-flow",
        status: "DRAFT",
        logo_url: a25.body.logo_url,
        cover_url: null,
        screenshots: ["https://focus.example/one.png", shot],
      });
      for (const k of [
        "name",
        "handle",
        "is_dev",
        "updated_at",
        "visibility",
        "is_published",
        "review_message",
      ])
        expect(a3.body).toHaveProperty(k);

      // §9.2 release guard before review: DRAFT.
      expect(["APPROVED", "PUBLISHED"]).not.toContain(String(a3.body.status).toUpperCase());

      // §9.4 submit-review [slug]: A1?slug → A20 (no body) → A3.
      const look = await send("GET", "/api/v1/developer/apps?slug=focus-flow");
      expect((look.body[0] as Record<string, unknown>).id).toBe(appId);
      const a20 = await send("POST", `${apps}/submit-review`);
      expect(a20.ok).toBe(true);
      expect(a20.body.status).toBe("PENDING_REVIEW");
      expect((await send("GET", apps)).body.status).toBe("PENDING_REVIEW");
      expect(
        (await admin.send("POST", `/api/v1/super-admin/apps/${appId}/approve`, { publish: false }))
          .body.status,
      ).toBe("APPROVED");

      // `apps release 1.0.0`: A6 → find the version → A9 ready → status guard → A8 → A3.
      const a6 = await send("GET", `${apps}/versions`);
      const v100 = (a6.body as Record<string, unknown>[]).find((v) => v.version === "1.0.0")!;
      expect((v100.manifest as typeof manifest).ui.bundle.entry).toBe("index.html");
      expect((await send("GET", `${apps}/versions/${String(v100.id)}/bundle`)).body.status).toBe(
        "bundle_ready",
      );
      const a8 = await send("POST", `${apps}/versions/${String(v100.id)}/publish`);
      expect(a8.ok).toBe(true);
      expect(a8.body).toMatchObject({
        version: "1.0.0",
        id: v100.id,
        is_latest: true,
        release_review_state: null,
      });
      expect(typeof a8.body.published_at).toBe("string");
      expect(String((await send("GET", apps)).body.status).toUpperCase()).toBe("PUBLISHED");

      // §9.2 push: A3 → A13 (PUT working) → A17/A18/A19 unless unchanged+ready → A3 → A14.
      const pushHash = bundleHash("1.1.0");
      const a13 = await send("PUT", `${apps}/working`, {
        manifest,
        changelog: "Second",
        content_hash: pushHash,
      });
      expect(a13.ok).toBe(true);
      expect(a13.body).toMatchObject({ unchanged: false });
      expect(typeof a13.body.revision).toBe("number");
      const working = await uploadBundle(`${apps}/working/bundle`);
      // The same bytes are already stored: 0.1.47 skips every upload.
      expect(working.skipped).toBe(4);
      expect(working.fin.body).toMatchObject({ bundle_status: "ready", file_count: 4 });
      const again13 = await send(
        "PUT",
        `${apps}/working`,
        { manifest, changelog: "Second", content_hash: pushHash },
        { "If-Match": String(a13.body.revision) },
      );
      expect(again13.body).toMatchObject({
        unchanged: true,
        bundle_status: "ready",
        revision: a13.body.revision,
      });
      expect(again13.hit).toBe(true);
      const stale = await send(
        "PUT",
        `${apps}/working`,
        { manifest, content_hash: "e".repeat(64) },
        { "If-Match": "999" },
      );
      expect(stale.status).toBe(409);
      const a14 = await send("GET", `${apps}/working`);
      expect(a14.body).toMatchObject({ revision: a13.body.revision, dirty_vs_latest_cut: true });

      // cut 1.1.0: A3 → A16; frozen_executas is read unguarded.
      const a16 = await send("POST", `${apps}/working/cut`, {
        version: "1.1.0",
        changelog: "Second",
      });
      expect(a16.ok).toBe(true);
      expect(a16.body.version).toBe("1.1.0");
      expect(typeof a16.body.version_id).toBe("number");
      const frozen = a16.body.frozen_executas as {
        tool_id: string;
        executa_version_id: number;
        version?: string;
      }[];
      expect(frozen.map((f) => f.tool_id)).toEqual([toolId]);
      expect(typeof frozen[0]?.executa_version_id).toBe("number");
      expect(typeof (a16.body.bundle as { object_prefix: string }).object_prefix).toBe("string");
      const recut = await send("POST", `${apps}/working/cut`, { version: "1.1.1" });
      expect(recut.status).toBe(409);
      const badCut = await send("POST", `${apps}/working/cut`, { version: "not-semver" });
      expect([400, 409, 422]).toContain(badCut.status);

      // release 1.1.0 → is_latest moves.
      const a6b = (await send("GET", `${apps}/versions`)).body as Record<string, unknown>[];
      const v110 = a6b.find((v) => v.version === "1.1.0")!;
      expect((await send("GET", `${apps}/versions/${String(v110.id)}/bundle`)).body.status).toBe(
        "bundle_ready",
      );
      expect(
        (await send("POST", `${apps}/versions/${String(v110.id)}/publish`)).body,
      ).toMatchObject({ is_latest: true });
      const status = (await send("GET", `${apps}/versions`)).body as Record<string, unknown>[];
      expect((status.find((v) => v.is_latest) ?? status[0])?.version).toBe("1.1.0");

      // discard: A14 → A15 (204; a second one is 404, which the CLI also accepts).
      expect((await send("GET", `${apps}/working`)).ok).toBe(true);
      expect((await send("DELETE", `${apps}/working`)).status).toBe(204);
      expect((await send("DELETE", `${apps}/working`)).status).toBe(404);
      expect((await send("GET", `${apps}/working`)).status).toBe(404);

      // §9.5: list (bare array), versions, sync-meta (0.1.30 body), then A3.
      const list = await send("GET", "/api/v1/developer/apps");
      expect(Array.isArray(list.body)).toBe(true);
      expect(
        (
          await send("PATCH", apps, {
            name: "Focus Flow 2",
            category: "productivity",
            tagline: "Deeper",
            description: "Long",
          })
        ).ok,
      ).toBe(true);
      expect((await send("GET", apps)).body).toMatchObject({
        name: "Focus Flow 2",
        tagline: "Deeper",
      });
      // rename-slug after the first publish: refused with `detail.code: detail.message`.
      const rename = await send("PATCH", apps, { slug: "focus-renamed" });
      expect(rename.status).toBe(409);
      const rd = rename.body.detail as { code: string; message: string };
      expect(typeof rd.code).toBe("string");
      expect(typeof rd.message).toBe("string");
      // unpublish → archive → unarchive (A21–A23 read `status`), delete (A5: 204).
      expect((await send("POST", `${apps}/unpublish`)).body.status).toBe("APPROVED");
      expect((await send("POST", `${apps}/archive`)).body.status).toBe("ARCHIVED");
      expect((await send("POST", `${apps}/unarchive`)).body.status).toBe("APPROVED");
      expect((await send("DELETE", apps)).status).toBe(204);
      expect((await send("GET", apps)).status).toBe(404);

      // A second app: rename-slug before any publish (A4 `{slug}`, reads `slug`).
      const other = await send("POST", "/api/v1/developer/apps", {
        slug: "draft-app",
        name: "Draft",
      });
      const renamed = await send("PATCH", `/api/v1/developer/apps/${String(other.body.id)}`, {
        slug: "draft-app-2",
      });
      expect(renamed.body.slug).toBe("draft-app-2");
      // A create without a handle: 409 with detail.code HANDLE_REQUIRED (push's hint).
      const nobody = nexusClient(host, (await hub.developer(null)).pat);
      const noHandle = await nobody.send("POST", "/api/v1/developer/apps", {
        slug: "nohandle",
        name: "N",
      });
      expect(noHandle.status).toBe(409);
      expect((noHandle.body.detail as { code: string }).code).toBe("HANDLE_REQUIRED");
    },
    60_000,
  );
});
