// Per-invoke token mint and verify (issue 11 "Speed"), each against a bare Ed25519 baseline in
// the same run: `crypto.sign` / `crypto.verify` of the same JWS signing input with a KeyObject,
// i.e. the signature alone without JSON, base64url, claim checks or the key lookup. Also the
// verifier with its dev-session lookup on SQLite, and `POST …/dev/storage/mint` end to end
// through the Hono app (PAT lookup, session insert, mint) on SQLite.
import { createPublicKey, generateKeyPairSync, randomBytes, sign, verify } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createApp,
  DEFAULT_CONFIG,
  FAMILY_AUDIENCES,
  kekFromBytes,
  migrateToLatest,
  mintPat,
  nullLogger,
  openSqlite,
  resolveConfig,
  SigningKeyring,
  sqlStores,
  systemClock,
  verifyNexusToken,
} from "@anna-ai/nexus";
import { type MeasureOptions, measure, type Row } from "./measure.js";

export async function tokensPiece(o: MeasureOptions): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "anna-bench-nexus-tokens-"));
  const db = openSqlite(join(dir, "nexus.sqlite"));
  try {
    await migrateToLatest(db.db);
    const stores = sqlStores(db.db);
    const keyring = new SigningKeyring({
      store: stores.signingKeys,
      kek: kekFromBytes(randomBytes(32), "bench"),
      clock: systemClock,
    });
    await keyring.ensureKey();
    const aud = FAMILY_AUDIENCES.storage;
    const claims = {
      userId: "1",
      toolId: "tool-notes",
      invokeId: "inv-1",
      audience: aud,
      extra: { allowed_scopes: ["user", "tool"], max_calls: 200 },
    };
    const token = await keyring.mint(claims);

    // The baseline signs the very bytes our token signs, with the same key.
    const [h, p] = token.split(".") as [string, string, string];
    const input = Buffer.from(`${h}.${p}`);
    const kid = (JSON.parse(Buffer.from(h, "base64url").toString()) as { kid: string }).kid;
    const jwk = (await keyring.jwks()).keys.find((k) => k.kid === kid)!;
    const publicKey = createPublicKey({
      key: { kty: "OKP", crv: "Ed25519", x: jwk.x! },
      format: "jwk",
    });
    // Signing cost does not depend on which Ed25519 key signs (the keyring's stays sealed).
    const { privateKey } = generateKeyPairSync("ed25519");
    const sig = Buffer.from(token.split(".")[2]!, "base64url");

    // A dev session so the verifier's session lookup hits a row (as for every minted token).
    const user = await stores.users.create(
      { email: "bench@example.com", passwordHash: "x" },
      Date.now(),
    );
    const { pat } = await mintPat(stores, {
      userId: user.id,
      scopes: ["aps:dev"],
      label: null,
      now: Date.now(),
      ttlMs: 86_400_000,
    });
    const app = createApp({
      stores,
      keyring,
      clock: systemClock,
      logger: nullLogger,
      config: resolveConfig({ rateLimits: { ...DEFAULT_CONFIG.rateLimits, mints: 1e9 } }),
      pingDatabase: db.ping,
    });
    const mintOverHttp = async () => {
      const res = await app.request("http://127.0.0.1/api/v1/anna-apps/dev/storage/mint", {
        method: "POST",
        headers: { host: "127.0.0.1", "content-type": "application/json" },
        body: JSON.stringify({ pat, app_slug: "notes", executa_tool_id: "tool-notes" }),
      });
      if (res.status !== 200) throw new Error(`storage/mint ${res.status}`);
      return res.json();
    };
    const { storage_token } = (await mintOverHttp()) as { storage_token: string };
    const deps = { keyring, stores, clock: systemClock };

    const rows = [
      ...(await measure(
        "mint",
        [
          { name: "crypto.sign Ed25519", op: () => sign(null, input, privateKey) },
          { name: "keyring.mint", baseline: "crypto.sign Ed25519", op: () => keyring.mint(claims) },
        ],
        o,
      )),
      ...(await measure(
        "verify",
        [
          { name: "crypto.verify Ed25519", op: () => verify(null, input, publicKey, sig) },
          {
            name: "keyring.verify",
            baseline: "crypto.verify Ed25519",
            op: () => keyring.verify(token, aud, { toolId: "tool-notes" }),
          },
          {
            name: "verify + session (SQLite)",
            baseline: "crypto.verify Ed25519",
            op: () => verifyNexusToken(deps, storage_token, aud, { toolId: "tool-notes" }),
          },
        ],
        o,
      )),
      ...(await measure(
        "mint endpoint",
        [
          { name: "crypto.sign Ed25519", op: () => sign(null, input, privateKey) },
          {
            name: "POST storage/mint (SQLite)",
            baseline: "crypto.sign Ed25519",
            op: mintOverHttp,
          },
        ],
        { ...o, rounds: Math.max(1, Math.ceil(o.rounds / 2)) },
      )),
    ];
    return rows;
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
