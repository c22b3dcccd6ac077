// A local OAuth 2.0 provider for tests: a real HTTP server on 127.0.0.1 speaking the
// authorization-code grant with PKCE (S256 checked), the refresh_token grant, a userinfo endpoint
// and RFC 7009 revocation. Its `/authorize` signs in as `nextAccount` at once (no login page) and
// redirects back with a one-use code; tests revoke a user's grant, shorten token lifetimes, slow
// the refresh down and count what the server asked, to see the platform side handle each case.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeAccount {
  sub: string;
  email: string;
  name: string;
}

interface Grant {
  account: FakeAccount;
  scope: string;
  refreshToken: string;
  accessToken: string;
  revoked: boolean;
}

export interface FakeOAuthProvider {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Who `/authorize` signs in as next. */
  nextAccount: FakeAccount;
  /** Lifetime of each access token, in seconds. */
  expiresInS: number;
  /** Held before answering a refresh (so concurrent refreshes overlap). */
  refreshDelayMs: number;
  /** `/authorize` answers `error=access_denied` while set. */
  deny: boolean;
  /** Requests per grant type, and revocations. */
  readonly counts: { authorization_code: number; refresh_token: number; revoke: number };
  /** The access token currently valid for an account (to compare digests in tests). */
  accessTokenOf(sub: string): string | undefined;
  /** Every refresh token issued (a test checks none reached a plugin or a log). */
  refreshTokens(): string[];
  /** The user revoked the app at the provider: every token of the account dies. */
  revokeAccount(sub: string): void;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024;
const sha256url = (s: string) => createHash("sha256").update(s).digest("base64url");
const token = (prefix: string) => `${prefix}_${randomBytes(18).toString("base64url")}`;

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error("body too large");
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

export async function startFakeOAuthProvider(
  o: { tokenAuth?: "basic" | "body" } = {},
): Promise<FakeOAuthProvider> {
  const clientId = `client-${randomBytes(4).toString("hex")}`;
  const clientSecret = token("secret");
  const codes = new Map<
    string,
    {
      account: FakeAccount;
      challenge: string;
      redirectUri: string;
      scope: string;
      clientId: string;
    }
  >();
  const grants: Grant[] = [];
  const counts = { authorization_code: 0, refresh_token: 0, revoke: 0 };

  const clientOk = (req: IncomingMessage, form: URLSearchParams): boolean => {
    if ((o.tokenAuth ?? "basic") === "basic") {
      const m = /^Basic (.+)$/.exec(req.headers.authorization ?? "");
      if (!m) return false;
      const [id, secret] = Buffer.from(m[1]!, "base64").toString("utf8").split(":");
      return (
        decodeURIComponent(id ?? "") === clientId &&
        decodeURIComponent(secret ?? "") === clientSecret
      );
    }
    return form.get("client_id") === clientId && form.get("client_secret") === clientSecret;
  };

  const fake: FakeOAuthProvider = {
    url: "",
    clientId,
    clientSecret,
    nextAccount: { sub: "acct-ada-work", email: "ada@work.example", name: "Ada (work)" },
    expiresInS: 3600,
    refreshDelayMs: 0,
    deny: false,
    counts,
    accessTokenOf: (sub) => grants.find((g) => g.account.sub === sub && !g.revoked)?.accessToken,
    refreshTokens: () => grants.map((g) => g.refreshToken),
    revokeAccount(sub) {
      for (const g of grants) if (g.account.sub === sub) g.revoked = true;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/authorize") {
      const q = url.searchParams;
      const redirectUri = q.get("redirect_uri") ?? "";
      const back = new URL(redirectUri);
      back.searchParams.set("state", q.get("state") ?? "");
      if (q.get("client_id") !== clientId || q.get("response_type") !== "code") {
        return json(res, 400, { error: "invalid_request" });
      }
      if (q.get("code_challenge_method") !== "S256" || !q.get("code_challenge")) {
        return json(res, 400, {
          error: "invalid_request",
          error_description: "PKCE S256 required",
        });
      }
      if (fake.deny) {
        back.searchParams.set("error", "access_denied");
      } else {
        const code = token("code");
        codes.set(code, {
          account: { ...fake.nextAccount },
          challenge: q.get("code_challenge")!,
          redirectUri,
          scope: q.get("scope") ?? "",
          clientId,
        });
        back.searchParams.set("code", code);
      }
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (req.method === "POST" && url.pathname === "/token") {
      const form = await formOf(req);
      if (!clientOk(req, form)) return json(res, 401, { error: "invalid_client" });
      const grantType = form.get("grant_type");
      if (grantType === "authorization_code") {
        counts.authorization_code++;
        const code = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        if (code === undefined)
          return json(res, 400, {
            error: "invalid_grant",
            error_description: "unknown or used code",
          });
        if (code.redirectUri !== form.get("redirect_uri")) {
          return json(res, 400, {
            error: "invalid_grant",
            error_description: "redirect_uri mismatch",
          });
        }
        if (sha256url(form.get("code_verifier") ?? "") !== code.challenge) {
          return json(res, 400, {
            error: "invalid_grant",
            error_description: "PKCE verifier mismatch",
          });
        }
        const grant: Grant = {
          account: code.account,
          scope: code.scope,
          refreshToken: token("rt"),
          accessToken: token("at"),
          revoked: false,
        };
        // A reconnect of the same account replaces its earlier grant.
        for (const g of grants) if (g.account.sub === grant.account.sub) g.revoked = true;
        grants.push(grant);
        return json(res, 200, {
          access_token: grant.accessToken,
          refresh_token: grant.refreshToken,
          token_type: "Bearer",
          expires_in: fake.expiresInS,
          scope: grant.scope,
        });
      }
      if (grantType === "refresh_token") {
        counts.refresh_token++;
        if (fake.refreshDelayMs > 0) await new Promise((r) => setTimeout(r, fake.refreshDelayMs));
        const grant = grants.find((g) => g.refreshToken === form.get("refresh_token"));
        if (grant === undefined || grant.revoked) {
          return json(res, 400, { error: "invalid_grant", error_description: "token revoked" });
        }
        grant.accessToken = token("at");
        return json(res, 200, {
          access_token: grant.accessToken,
          token_type: "Bearer",
          expires_in: fake.expiresInS,
          scope: grant.scope,
        });
      }
      return json(res, 400, { error: "unsupported_grant_type" });
    }
    if (req.method === "GET" && url.pathname === "/userinfo") {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const grant = grants.find((g) => g.accessToken === bearer && !g.revoked);
      if (grant === undefined) return json(res, 401, { error: "invalid_token" });
      return json(res, 200, {
        sub: grant.account.sub,
        email: grant.account.email,
        name: grant.account.name,
      });
    }
    if (req.method === "POST" && url.pathname === "/revoke") {
      const form = await formOf(req);
      if (!clientOk(req, form)) return json(res, 401, { error: "invalid_client" });
      counts.revoke++;
      const t = form.get("token");
      for (const g of grants) if (g.refreshToken === t || g.accessToken === t) g.revoked = true;
      res.writeHead(200);
      return res.end();
    }
    json(res, 404, { error: "not_found" });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => json(res, 500, { error: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/** The ANNA_OAUTH_* variables an operator would set to use this provider as the generic `id`. */
export function fakeProviderEnv(
  fake: FakeOAuthProvider,
  o: { id: string; name: string; scopes: string; credentialNames: string },
): NodeJS.ProcessEnv {
  const v = `ANNA_OAUTH_${o.id.toUpperCase().replace(/-/g, "_")}`;
  return {
    ANNA_OAUTH_PROVIDERS: o.id,
    [`${v}_NAME`]: o.name,
    [`${v}_CLIENT_ID`]: fake.clientId,
    [`${v}_CLIENT_SECRET`]: fake.clientSecret,
    [`${v}_AUTHORIZE_URL`]: `${fake.url}/authorize`,
    [`${v}_TOKEN_URL`]: `${fake.url}/token`,
    [`${v}_USERINFO_URL`]: `${fake.url}/userinfo`,
    [`${v}_REVOKE_URL`]: `${fake.url}/revoke`,
    [`${v}_SCOPES`]: o.scopes,
    [`${v}_CREDENTIAL_NAMES`]: o.credentialNames,
  };
}
