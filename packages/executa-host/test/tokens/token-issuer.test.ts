import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  SignJWT,
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
} from "jose";
import { describe, expect, it, onTestFinished } from "vitest";
import { writeFile } from "node:fs/promises";
import { createDevTokenIssuer } from "../../src/tokens/dev-token-issuer.js";
import {
  JwtTokenIssuer,
  TOKEN_AUDIENCES,
  TOKEN_TTL_S,
  TokenError,
} from "../../src/tokens/token-issuer.js";

const binding = { userId: "u-1", toolId: "tool-a", invokeId: "inv-1" };

async function expectTokenError(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TokenError);
  expect((error as TokenError).code).toBe(code);
}

describe("JwtTokenIssuer", () => {
  it("mints an EdDSA JWT with kid, binding claims, audience and a 600 s lifetime", async () => {
    const now = 1_800_000_000_000;
    const issuer = await createDevTokenIssuer({ now: () => now });
    const token = await issuer.mint({
      ...binding,
      audience: TOKEN_AUDIENCES.storage,
      extra: { allowed_scopes: ["tool", "user"], max_calls: 200, user_id: "forged" },
    });
    const header = decodeProtectedHeader(token);
    expect(header.alg).toBe("EdDSA");
    expect(header.kid).toBe(await issuer.kid());
    const verified = await issuer.verify(token, TOKEN_AUDIENCES.storage, binding);
    expect(verified).toMatchObject({ ...binding, audience: "aps-storage" });
    expect(verified.claims).toMatchObject({
      iss: issuer.issuer,
      sub: "u-1",
      user_id: "u-1",
      executa_tool_id: "tool-a",
      tool_invoke_id: "inv-1",
      aud: "aps-storage",
      allowed_scopes: ["tool", "user"],
      max_calls: 200,
    });
    expect(verified.expiresAtS - verified.issuedAtS).toBe(TOKEN_TTL_S);
    expect(verified.issuedAtS).toBe(now / 1000);
  });

  it("mints the exact bytes jose's SignJWT does (Ed25519 is deterministic)", async () => {
    const now = 1_800_000_000_000;
    const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
    const privateJwk = await exportJWK(privateKey);
    const issuer = new JwtTokenIssuer({ privateJwk, now: () => now });
    const extra = { allowed_scopes: ["tool", "user"], max_calls: 200, unset: undefined };
    const token = await issuer.mint({ ...binding, audience: TOKEN_AUDIENCES.storage, extra });
    const iat = now / 1000;
    const expected = await new SignJWT({
      allowed_scopes: ["tool", "user"],
      max_calls: 200,
      user_id: binding.userId,
      executa_tool_id: binding.toolId,
      tool_invoke_id: binding.invokeId,
    })
      .setProtectedHeader({ alg: "EdDSA", kid: await issuer.kid(), typ: "JWT" })
      .setIssuer(issuer.issuer)
      .setSubject(binding.userId)
      .setAudience(TOKEN_AUDIENCES.storage)
      .setIssuedAt(iat)
      .setExpirationTime(iat + TOKEN_TTL_S)
      .sign(await importJWK(privateJwk, "EdDSA"));
    expect(token).toBe(expected);
  });

  it("publishes a JWKS that verifies its tokens independently", async () => {
    const issuer = await createDevTokenIssuer();
    const token = await issuer.mint({ ...binding, audience: TOKEN_AUDIENCES.sampling });
    const jwks = await issuer.jwks();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).not.toHaveProperty("d");
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
      audience: "executa-sampling",
    });
    expect(payload.tool_invoke_id).toBe("inv-1");
  });

  it("rejects a token presented for another audience", async () => {
    const issuer = await createDevTokenIssuer();
    const token = await issuer.mint({ ...binding, audience: TOKEN_AUDIENCES.sampling });
    await expectTokenError(issuer.verify(token, TOKEN_AUDIENCES.storage), "TOKEN_WRONG_AUDIENCE");
  });

  it("rejects an expired token", async () => {
    let now = 1_800_000_000_000;
    const issuer = await createDevTokenIssuer({ now: () => now });
    const token = await issuer.mint({ ...binding, audience: TOKEN_AUDIENCES.upload });
    now += (TOKEN_TTL_S - 1) * 1000;
    await expect(issuer.verify(token, TOKEN_AUDIENCES.upload)).resolves.toMatchObject(binding);
    now += 60_000;
    await expectTokenError(issuer.verify(token, TOKEN_AUDIENCES.upload), "TOKEN_EXPIRED");
  });

  it("rejects a token bound to a foreign invoke, tool or user", async () => {
    const issuer = await createDevTokenIssuer();
    const token = await issuer.mint({ ...binding, audience: TOKEN_AUDIENCES.image });
    await expectTokenError(
      issuer.verify(token, TOKEN_AUDIENCES.image, { ...binding, invokeId: "inv-2" }),
      "TOKEN_BINDING_MISMATCH",
    );
    await expectTokenError(
      issuer.verify(token, TOKEN_AUDIENCES.image, { toolId: "tool-b" }),
      "TOKEN_BINDING_MISMATCH",
    );
    await expectTokenError(
      issuer.verify(token, TOKEN_AUDIENCES.image, { userId: "u-2" }),
      "TOKEN_BINDING_MISMATCH",
    );
  });

  it("rejects a token signed by another key and garbage, without echoing the token", async () => {
    const issuer = await createDevTokenIssuer();
    const other = await createDevTokenIssuer();
    const token = await other.mint({ ...binding, audience: TOKEN_AUDIENCES.sampling });
    const error = await issuer.verify(token, TOKEN_AUDIENCES.sampling).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenError);
    expect((error as TokenError).code).toBe("TOKEN_BAD_SIGNATURE");
    expect((error as Error).message).not.toContain(token);
    await expectTokenError(issuer.verify("not-a-jwt", TOKEN_AUDIENCES.sampling), "TOKEN_MALFORMED");
  });

  it("rejects a tampered payload", async () => {
    const issuer = await createDevTokenIssuer();
    const token = await issuer.mint({ ...binding, audience: TOKEN_AUDIENCES.sampling });
    const [h, , s] = token.split(".");
    const forged = Buffer.from(
      JSON.stringify({ ...binding, aud: "executa-sampling", user_id: "u-2", sub: "u-2" }),
    ).toString("base64url");
    await expectTokenError(
      issuer.verify(`${h}.${forged}.${s}`, TOKEN_AUDIENCES.sampling),
      "TOKEN_BAD_SIGNATURE",
    );
  });
});

describe("createDevTokenIssuer", () => {
  it("writes a new key file once and reuses it on the next start", async () => {
    const dir = await mkdtemp(join(tmpdir(), "dev-key-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const keyPath = join(dir, "nested", "dev-key.json");
    const first = await createDevTokenIssuer({ keyPath });
    const token = await first.mint({ ...binding, audience: TOKEN_AUDIENCES.sampling });
    expect((await stat(keyPath)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(keyPath, "utf8"))).toHaveProperty("d");
    const second = await createDevTokenIssuer({ keyPath });
    await expect(second.verify(token, TOKEN_AUDIENCES.sampling, binding)).resolves.toMatchObject(
      binding,
    );
  });

  it("refuses a key file that is not JSON, and keys that are not Ed25519 private keys", async () => {
    const dir = await mkdtemp(join(tmpdir(), "dev-key-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const keyPath = join(dir, "broken.json");
    await writeFile(keyPath, "not json");
    await expectTokenError(createDevTokenIssuer({ keyPath }), "TOKEN_MALFORMED");
    const issuer = await createDevTokenIssuer();
    const [publicJwk] = (await issuer.jwks()).keys;
    expect(() => new JwtTokenIssuer({ privateJwk: publicJwk ?? {} })).toThrow(TokenError);
    expect(() => new JwtTokenIssuer({ privateJwk: { kty: "EC", crv: "P-256", d: "x" } })).toThrow(
      /Ed25519 private JWK/,
    );
  });
});
