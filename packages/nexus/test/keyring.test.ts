// The per-invoke token keyring (H15): EdDSA JWTs with kid, bound to user/tool/invoke and an
// audience, refused for anything else; rotation; keys sealed at rest.
import { randomBytes } from "node:crypto";
import { TOKEN_AUDIENCES, type TokenIssuer } from "@anna-ai/executa-host";
import { SignJWT, base64url, createLocalJWKSet, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { manualClock } from "../src/core/clock.js";
import { memoryStores } from "../src/stores/memory-stores.js";
import { kekFromBytes, KeyEncryptionError } from "../src/tokens/key-encryption.js";
import { KEY_RETIRE_AFTER_MS, NEXUS_TOKEN_ISSUER, SigningKeyring } from "../src/tokens/keyring.js";

const AUD = TOKEN_AUDIENCES.storage;
const BIND = { userId: "7", toolId: "tool-notes", invokeId: "inv-1" };

function setup() {
  const clock = manualClock();
  const stores = memoryStores();
  const kek = kekFromBytes(randomBytes(32), "test");
  const ring = new SigningKeyring({ store: stores.signingKeys, kek, clock });
  return { clock, stores, kek, ring };
}

const mint = (ring: SigningKeyring, over: Partial<typeof BIND & { audience: string }> = {}) =>
  ring.mint({ ...BIND, audience: AUD, extra: { allowed_scopes: ["user"] }, ...over });

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as { code: string }).code;
  }
  return "accepted";
}

const parts = (t: string) => t.split(".") as [string, string, string];
const json = (part: string) =>
  JSON.parse(new TextDecoder().decode(base64url.decode(part))) as Record<string, unknown>;
const enc = (o: unknown) => base64url.encode(JSON.stringify(o));

describe("SigningKeyring", () => {
  it("is an executa-host TokenIssuer whose tokens an independent verifier accepts from the JWKS", async () => {
    const { ring } = setup();
    const issuer: TokenIssuer = ring;
    const token = await issuer.mint({ ...BIND, audience: AUD });
    const [h] = parts(token);
    const header = json(h);
    expect(header).toMatchObject({ alg: "EdDSA", typ: "JWT" });
    const jwks = await ring.jwks();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" });
    expect(jwks.keys[0]!.kid).toBe(header.kid);
    expect(jwks.keys[0]).not.toHaveProperty("d");
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
      issuer: NEXUS_TOKEN_ISSUER,
      audience: AUD,
      currentDate: new Date(Date.UTC(2026, 0, 1)),
    });
    expect(payload).toMatchObject({
      sub: "7",
      user_id: "7",
      executa_tool_id: "tool-notes",
      tool_invoke_id: "inv-1",
    });
    expect(payload.exp! - payload.iat!).toBe(600);
  });

  it("verifies the token it was minted as and refuses it for another tool, invoke, user or audience", async () => {
    const { ring } = setup();
    const token = await mint(ring);
    const ok = await ring.verify(token, AUD, BIND);
    expect(ok).toMatchObject({ ...BIND, audience: AUD });
    expect(ok.claims.allowed_scopes).toEqual(["user"]);
    expect(await codeOf(ring.verify(token, AUD, { ...BIND, toolId: "tool-other" }))).toBe(
      "TOKEN_BINDING_MISMATCH",
    );
    expect(await codeOf(ring.verify(token, AUD, { ...BIND, invokeId: "inv-2" }))).toBe(
      "TOKEN_BINDING_MISMATCH",
    );
    expect(await codeOf(ring.verify(token, AUD, { ...BIND, userId: "8" }))).toBe(
      "TOKEN_BINDING_MISMATCH",
    );
    expect(await codeOf(ring.verify(token, TOKEN_AUDIENCES.sampling, BIND))).toBe(
      "TOKEN_WRONG_AUDIENCE",
    );
  });

  it("refuses an expired token by the injected clock, and caps lifetimes at 600 s", async () => {
    const { ring, clock } = setup();
    const token = await ring.mint({ ...BIND, audience: AUD, ttlSeconds: 3600 });
    const { exp, iat } = json(parts(token)[1]) as { exp: number; iat: number };
    expect(exp - iat).toBe(600);
    clock.advance(600_000);
    expect(await codeOf(ring.verify(token, AUD))).toBe("accepted"); // within the 5 s tolerance
    clock.advance(6_000);
    expect(await codeOf(ring.verify(token, AUD))).toBe("TOKEN_EXPIRED");
  });

  it("refuses tampered, unknown-kid, alg=none and HS256-confusion tokens", async () => {
    const { ring, clock } = setup();
    const token = await mint(ring);
    const [h, p, s] = parts(token);
    const header = json(h);

    // a claim changed after signing
    const forged = enc({ ...json(p), user_id: "8", sub: "8" });
    expect(await codeOf(ring.verify(`${h}.${forged}.${s}`, AUD))).toBe("TOKEN_BAD_SIGNATURE");
    // a signature bit flipped
    const sig = base64url.decode(s);
    sig[0] = sig[0]! ^ 1;
    expect(await codeOf(ring.verify(`${h}.${p}.${base64url.encode(sig)}`, AUD))).toBe(
      "TOKEN_BAD_SIGNATURE",
    );

    // signed by a key this server does not have, whatever kid it claims
    const other = new SigningKeyring({
      store: memoryStores().signingKeys,
      kek: kekFromBytes(randomBytes(32), "other"),
      clock,
    });
    const foreign = await mint(other);
    expect(await codeOf(ring.verify(foreign, AUD))).toBe("TOKEN_BAD_SIGNATURE");
    const [, fp, fs] = parts(foreign);
    expect(await codeOf(ring.verify(`${h}.${fp}.${fs}`, AUD))).toBe("TOKEN_BAD_SIGNATURE");
    // no kid at all
    expect(await codeOf(ring.verify(`${enc({ alg: "EdDSA" })}.${p}.${s}`, AUD))).toBe(
      "TOKEN_BAD_SIGNATURE",
    );

    // alg=none with our kid
    const none = `${enc({ alg: "none", kid: header.kid, typ: "JWT" })}.${p}.`;
    expect(await codeOf(ring.verify(none, AUD))).not.toBe("accepted");
    // HS256 keyed with our public key (the classic RS/HS confusion), with our kid
    const [jwk] = (await ring.jwks()).keys;
    for (const secret of [
      base64url.decode(jwk!.x!),
      new TextEncoder().encode(JSON.stringify(jwk)),
    ]) {
      const hs = await new SignJWT(json(p))
        .setProtectedHeader({ alg: "HS256", kid: header.kid as string, typ: "JWT" })
        .sign(secret);
      expect(await codeOf(ring.verify(hs, AUD))).not.toBe("accepted");
    }
    expect(await codeOf(ring.verify("not-a-jwt", AUD))).toBe("TOKEN_MALFORMED");
  });

  it("rotates: new tokens carry the new kid, old ones verify until they expire, then the old key retires", async () => {
    const { ring, clock, stores, kek } = setup();
    const oldToken = await mint(ring);
    const oldKid = json(parts(oldToken)[0]).kid;
    clock.advance(1_000);
    const r = await ring.rotate();
    expect(r.superseded).toEqual([oldKid]);
    expect(r.kid).not.toBe(oldKid);
    const newToken = await mint(ring);
    expect(json(parts(newToken)[0]).kid).toBe(r.kid);
    expect((await ring.jwks()).keys.map((k) => k.kid)).toEqual([r.kid, oldKid]);
    expect(await codeOf(ring.verify(oldToken, AUD))).toBe("accepted");
    expect(await codeOf(ring.verify(newToken, AUD))).toBe("accepted");

    // another process on the same database (a second node) learns the new key on first sight
    const peer = new SigningKeyring({ store: stores.signingKeys, kek, clock });
    expect(await codeOf(peer.verify(newToken, AUD))).toBe("accepted");
    expect(await codeOf(peer.verify(oldToken, AUD))).toBe("accepted");

    // past the old key's last possible token: it leaves the JWKS and verifies nothing
    clock.advance(KEY_RETIRE_AFTER_MS);
    expect((await ring.jwks()).keys.map((k) => k.kid)).toEqual([r.kid]);
    expect(await codeOf(ring.verify(oldToken, AUD))).toBe("TOKEN_BAD_SIGNATURE");
    const again = await ring.rotate();
    expect(again.retired).toEqual([oldKid]);
    const stored = await stores.signingKeys.listAll();
    expect(stored.find((k) => k.kid === oldKid)?.privateSealed).toBeNull();
  });

  it("keeps private keys sealed: the store never holds `d`, and another KEK cannot open them", async () => {
    const { ring, stores, clock } = setup();
    await ring.ensureKey();
    const [row] = await stores.signingKeys.listAll();
    expect(row!.privateSealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toMatch(/"d"/);
    expect(row!.publicJwk).not.toHaveProperty("d");
    const wrong = new SigningKeyring({
      store: stores.signingKeys,
      kek: kekFromBytes(randomBytes(32), "ANNA_TOKEN_KEK"),
      clock,
    });
    await expect(wrong.ensureKey()).rejects.toBeInstanceOf(KeyEncryptionError);
    await expect(wrong.ensureKey()).rejects.toThrow(/ANNA_TOKEN_KEK/);
    expect(() => kekFromBytes(randomBytes(16), "ANNA_TOKEN_KEK")).toThrow(/32 bytes/);
  });
});
