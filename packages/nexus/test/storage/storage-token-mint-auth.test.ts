// The `storage_token` of `dev/storage/mint` on /api/v1/storage/*, as `executa dev --storage real`
// and `anna-app dev --storage aps` send it (Bearer), on SQLite and PostgreSQL: the token names the
// user, tool, app and scopes, a query cannot widen them, another user's rows stay out of reach,
// and revoking the PAT ends the token at once. Plus the dev executa registration (D3).
import { describe, expect, it } from "vitest";
import type { Scope } from "../../src/auth/scopes.js";
import { mintPat } from "../../src/routes/tokens.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { detail, type Harness } from "../helpers/harness.js";
import { storageHarness } from "../helpers/storage.js";

useDialectCleanup();

const DEV = "/api/v1/anna-apps/dev";

async function developer(h: Harness, email: string, scopes: Scope[] = ["aps:dev"]) {
  await h.signup(email);
  const user = (await h.stores.users.findCredentials(email))!.user;
  const { pat, token } = await mintPat(h.stores, {
    userId: user.id,
    scopes,
    label: null,
    now: h.clock.now(),
    ttlMs: 86_400_000,
  });
  return { pat, patId: token.id, userId: user.id };
}

async function storageToken(h: Harness, body: Record<string, unknown>): Promise<string> {
  const res = await h.req("POST", `${DEV}/storage/mint`, { body });
  if (res.status !== 200) throw new Error(`mint ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { storage_token: string }).storage_token;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

for (const d of DIALECTS) {
  describe(`storage tokens on /api/v1/storage (${d.name})`, () => {
    it.skipIf(d.skip)(
      "a plugin's token reads and writes its tool, user and app rows, nobody else's",
      async () => {
        const h = await storageHarness(await d.open());
        const a = await developer(h, "a@example.com");
        const b = await developer(h, "b@example.com");
        const tokenA = await storageToken(h, {
          pat: a.pat,
          app_slug: "executa-notes",
          executa_tool_id: "notes",
          allowed_scopes: ["user", "app", "tool"],
          ttl_seconds: 600,
        });
        for (const scope of ["tool", "user", "app"]) {
          const put = await h.req("PUT", `/api/v1/storage/kv?scope=${scope}`, {
            headers: bearer(tokenA),
            body: { key: "k", value: scope },
          });
          expect(put.status, await put.clone().text()).toBe(200);
        }
        const got = await h.req("GET", "/api/v1/storage/kv?scope=tool&key=k", {
          headers: bearer(tokenA),
        });
        expect(await got.json()).toMatchObject({ key: "k", value: "tool", exists: true });

        // The same tool and app names in B's token reach B's rows only.
        const tokenB = await storageToken(h, {
          pat: b.pat,
          app_slug: "executa-notes",
          executa_tool_id: "notes",
        });
        const theirs = await h.req("GET", "/api/v1/storage/kv?scope=tool&key=k", {
          headers: bearer(tokenB),
        });
        expect(await theirs.json()).toMatchObject({ exists: false });

        // Another tool's token of the same user does not see the tool rows.
        const otherTool = await storageToken(h, {
          pat: a.pat,
          app_slug: "executa-notes",
          executa_tool_id: "other",
        });
        const other = await h.req("GET", "/api/v1/storage/kv?scope=tool&key=k", {
          headers: bearer(otherTool),
        });
        expect(await other.json()).toMatchObject({ exists: false });
        const shared = await h.req("GET", "/api/v1/storage/kv?scope=user&key=k", {
          headers: bearer(otherTool),
        });
        expect(await shared.json()).toMatchObject({ value: "user" });
      },
    );

    it.skipIf(d.skip)(
      "refuses a scope the token does not allow, and a query naming another tool or app",
      async () => {
        const h = await storageHarness(await d.open());
        const a = await developer(h, "a@example.com");
        const appToken = await storageToken(h, { pat: a.pat, app_slug: "notes", max_calls: 200 });
        const tool = await h.req("GET", "/api/v1/storage/kv?scope=tool&key=k", {
          headers: bearer(appToken),
        });
        expect(tool.status).toBe(403);
        expect(await detail(tool)).toMatchObject({ code: "not_granted" });
        const app = await h.req("GET", "/api/v1/storage/kv?scope=app&key=k", {
          headers: bearer(appToken),
        });
        expect(app.status).toBe(200);

        const toolToken = await storageToken(h, {
          pat: a.pat,
          app_slug: "executa-notes",
          executa_tool_id: "notes",
        });
        const widened = await h.req("GET", "/api/v1/storage/kv?scope=tool&key=k&tool_id=other", {
          headers: bearer(toolToken),
        });
        expect(widened.status).toBe(403);
        expect((await detail(widened)).message).toMatch(/for tool_id "notes", not "other"/);
        const otherApp = await h.req("GET", "/api/v1/storage/kv?scope=user&key=k&app_id=x", {
          headers: bearer(toolToken),
        });
        expect(otherApp.status).toBe(403);
      },
    );

    it.skipIf(d.skip)(
      "refuses a token of another audience, a forged one and one whose PAT was revoked",
      async () => {
        const h = await storageHarness(await d.open());
        const a = await developer(h, "a@example.com");
        const session = await h.req("POST", `${DEV}/session/mint`, {
          body: { pat: a.pat, kind: "complete", app_slug: "notes" },
        });
        const appSession = ((await session.json()) as { app_session_token: string })
          .app_session_token;
        const wrongAud = await h.req("GET", "/api/v1/storage/kv?scope=user&key=k", {
          headers: bearer(appSession),
        });
        expect(wrongAud.status).toBe(403);
        const forged = await h.req("GET", "/api/v1/storage/kv?scope=user&key=k", {
          headers: bearer("eyJhbGciOiJub25lIn0.e30."),
        });
        expect(forged.status).toBe(401);

        const token = await storageToken(h, { pat: a.pat, app_slug: "notes" });
        await h.stores.tokens.revoke(a.userId, a.patId, h.clock.now());
        const revoked = await h.req("GET", "/api/v1/storage/kv?scope=user&key=k", {
          headers: bearer(token),
        });
        expect(revoked.status).toBe(401);
        expect((await detail(revoked)).code).toBe("token_revoked");
      },
    );

    it.skipIf(d.skip)("a token's quota_bytes lowers the user's quota for its calls", async () => {
      const h = await storageHarness(await d.open(), { quotaBytes: 1_000 });
      const a = await developer(h, "a@example.com");
      const token = await storageToken(h, { pat: a.pat, app_slug: "notes", quota_bytes: 50 });
      const big = await h.req("PUT", "/api/v1/storage/kv?scope=user", {
        headers: bearer(token),
        body: { key: "k", value: "x".repeat(60) },
      });
      expect(big.status).toBe(429);
      expect(await detail(big)).toMatchObject({ code: "quota_exceeded" });
    });

    it.skipIf(d.skip)(
      "registers a dev executa: the slug asked for, else executa-<tool_id> made slug-safe",
      async () => {
        const h = await storageHarness(await d.open());
        const a = await developer(h, "a@example.com");
        const reg = (body: unknown) => h.req("POST", `${DEV}/executas/register`, { body });
        expect(await (await reg({ pat: a.pat, tool_id: "My.Tool_1" })).json()).toEqual({
          created: false,
          slug: "executa-my-tool-1",
          app_id: null,
          kind: "executa",
          tool_id: "My.Tool_1",
          name: "My.Tool_1",
        });
        expect(
          await (await reg({ pat: a.pat, tool_id: "executa-notes", name: "Notes" })).json(),
        ).toMatchObject({ slug: "executa-notes", name: "Notes" });
        expect(
          await (await reg({ pat: a.pat, tool_id: "notes", slug: "my-notes" })).json(),
        ).toMatchObject({ slug: "my-notes" });
        expect((await reg({ tool_id: "notes" })).status).toBe(401);
        expect((await reg({ pat: a.pat, tool_id: "" })).status).toBe(400);
      },
    );
  });
}
