// B2, the OIDC exchange, against a local issuer: a real HTTP server on 127.0.0.1 serving a
// discovery document and a JWKS, tokens signed with `jose` as GitHub Actions signs them. A token
// whose claims match a trusted publisher gets an upload token that works (and stamps
// `last_used_at`); a wrong audience, repository, workflow or environment, an expired token, an
// unknown kid, `alg: none` and an untrusted issuer are all refused.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK, SignJWT, type CryptoKey } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";
import { binaryServer, DEV, sha256, type BinaryServer } from "./helpers/binaries.js";

useDialectCleanup();
const sqlite = DIALECTS[0]!;

let issuer: string;
let server: Server;
let key: CryptoKey;
let stranger: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair("RS256");
  key = pair.privateKey;
  ({ privateKey: stranger } = await generateKeyPair("RS256"));
  const pub = await exportJWK(pair.publicKey);
  const jwks = { keys: [{ ...pub, kid: "k1", alg: "RS256", use: "sig" } satisfies JWK] };
  server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url === "/.well-known/openid-configuration") {
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/.well-known/jwks` }));
    } else if (req.url === "/.well-known/jwks") {
      res.end(JSON.stringify(jwks));
    } else {
      res.statusCode = 404;
      res.end("{}");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

const CLAIMS = {
  repository: "acme/grep",
  workflow_ref: "acme/grep/.github/workflows/publish.yml@refs/tags/v1.0.0",
  environment: "production",
  ref: "refs/tags/v1.0.0",
};

async function ghToken(
  s: BinaryServer,
  claims: Record<string, unknown> = {},
  opts: { aud?: string; iss?: string; kid?: string; signer?: CryptoKey; expiresInS?: number } = {},
) {
  const now = Math.floor(s.clock.now() / 1000);
  return new SignJWT({ ...CLAIMS, ...claims })
    .setProtectedHeader({ alg: "RS256", kid: opts.kid ?? "k1" })
    .setIssuer(opts.iss ?? issuer)
    .setAudience(opts.aud ?? "anna-aps")
    .setSubject("repo:acme/grep:environment:production")
    .setIssuedAt(now)
    .setExpirationTime(now + (opts.expiresInS ?? 300))
    .sign(opts.signer ?? key);
}

const exchange = (s: BinaryServer, toolId: string, oidcToken: string) =>
  fetch(new URL(`${DEV}/upload-session/oidc-exchange`, s.hub.url), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ tool_id: toolId, oidc_token: oidcToken }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

const codeOf = (b: Record<string, unknown>) => (b.detail as { code: string }).code;
const messageOf = (b: Record<string, unknown>) => (b.detail as { message: string }).message;

describe("the OIDC exchange (B2) against a local issuer", () => {
  const setup = async () => {
    const s = await binaryServer(await sqlite.open(), { oidcIssuers: [issuer] });
    const tool = await s.tool();
    const path = `${DEV}/executas/${tool.toolId}/trusted-publishers`;
    const reg = await s.hub.call(tool.pat, "POST", path, {
      body: { repository: "acme/grep", workflow: "publish.yml", environment: "production" },
    });
    expect(reg.status).toBe(201);
    return { s, tool, path };
  };

  it("exchanges a matching token for an upload token that works, and records last_used_at", async () => {
    const { s, tool, path } = await setup();
    const res = await exchange(s, tool.toolId, await ghToken(s, { repository: "ACME/Grep" }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const t = res.body.upload_token as string;
    expect(t).toMatch(/^anna_upl_/);
    const init = await s.upload(t, "POST", `${DEV}/executas/${tool.toolId}/binaries/init`, {
      executa_version: "1.0.0",
      assets: {
        "linux-x86_64": {
          filename: "g.tar.gz",
          sha256: sha256("x"),
          byte_size: 1,
          format: "tar.gz",
        },
      },
    });
    expect(init.status).toBe(200);
    const list = (await s.hub.call(tool.pat, "GET", path)).body as {
      trusted_publishers: { last_used_at: string | null }[];
    };
    expect(list.trusted_publishers[0]!.last_used_at).toBe(new Date(s.clock.now()).toISOString());
    // A reusable workflow's job_workflow_ref counts too.
    const reusable = await ghToken(s, {
      workflow_ref: "acme/other/.github/workflows/ci.yml@refs/heads/main",
      job_workflow_ref: "acme/grep/.github/workflows/publish.yml@refs/heads/main",
    });
    expect((await exchange(s, tool.toolId, reusable)).status).toBe(200);
  });

  it("refuses a wrong audience, repository, workflow or environment, expiry, an unknown kid, alg none and an untrusted issuer", async () => {
    const { s, tool } = await setup();
    const refused = async (token: string, status: number, code: string, text?: string) => {
      const r = await exchange(s, tool.toolId, token);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(codeOf(r.body)).toBe(code);
      if (text) expect(messageOf(r.body)).toContain(text);
    };
    await refused(await ghToken(s, {}, { aud: "sigstore" }), 401, "oidc_rejected", "audience");
    await refused(
      await ghToken(s, {
        repository: "evil/grep",
        workflow_ref: "evil/grep/.github/workflows/publish.yml@refs/heads/main",
      }),
      403,
      "no_trusted_publisher",
      "evil/grep",
    );
    await refused(
      await ghToken(s, { workflow_ref: "acme/grep/.github/workflows/other.yml@refs/heads/main" }),
      403,
      "no_trusted_publisher",
    );
    await refused(await ghToken(s, { environment: "staging" }), 403, "no_trusted_publisher");
    await refused(await ghToken(s, { environment: undefined }), 403, "no_trusted_publisher");
    await refused(await ghToken(s, {}, { expiresInS: -120 }), 401, "oidc_rejected", "expired");
    await refused(await ghToken(s, {}, { kid: "k2", signer: stranger }), 401, "oidc_rejected");
    await refused(await ghToken(s, {}, { signer: stranger }), 401, "oidc_rejected");
    await refused(
      await ghToken(s, {}, { iss: "https://token.actions.githubusercontent.com" }),
      401,
      "oidc_rejected",
      "not trusted",
    );
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const now = Math.floor(s.clock.now() / 1000);
    const none = `${b64({ alg: "none", typ: "JWT" })}.${b64({ ...CLAIMS, iss: issuer, aud: "anna-aps", exp: now + 300 })}.`;
    await refused(none, 401, "oidc_rejected");
    await refused("not-a-jwt", 401, "oidc_rejected", "not a JWT");
    // A matching token for a tool without that registration is refused the same way.
    const other = await s.tool();
    const r = await exchange(s, other.toolId, await ghToken(s));
    expect(r.status).toBe(403);
    expect(codeOf(r.body)).toBe("no_trusted_publisher");
  });
});
