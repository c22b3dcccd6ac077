// Tables of per-invoke token minting (H15): the signing keys and the dev sessions the PAT-authed
// mint endpoints create. Same conventions as schema.ts (epoch ms, JSON as text).
import type { Generated } from "kysely";

export interface SigningKeysTable {
  id: Generated<number>;
  /** RFC 7638 thumbprint of the public key; the JWT header's `kid`. */
  kid: string;
  alg: string;
  /** The public JWK as JSON (`kty`, `crv`, `x`). */
  public_jwk: string;
  /**
   * The private JWK, AES-256-GCM-sealed under the key-encryption key (`v1.<iv>.<tag>.<ct>`);
   * null once the key is retired.
   */
  private_jwk_sealed: string | null;
  created_at: number;
  /** Set when a newer key took over signing; tokens it signed stay verifiable until retire_at. */
  superseded_at: number | null;
  /** From then on the key verifies nothing and leaves the JWKS. */
  retire_at: number | null;
}

export interface DevSessionsTable {
  id: Generated<number>;
  /** `aps_…`: the handle the CLI keeps (real-world-cli.md D4). */
  uuid: string;
  user_id: number;
  /** The PAT that minted it: revoking the PAT ends the session's tokens too. */
  dev_token_id: number;
  /** `complete` | `agent` | `storage` */
  kind: string;
  submode: string | null;
  app_slug: string;
  tool_id: string;
  label: string | null;
  /** JSON object of family claims carried by every token of the session. */
  claims: string;
  created_at: number;
  /** Idle deadline; refresh slides it. */
  expires_at: number;
  /** Hard deadline; nothing slides it. */
  max_lifetime_at: number;
  last_minted_at: number;
  revoked_at: number | null;
}

export interface TokenTables {
  signing_keys: SigningKeysTable;
  dev_sessions: DevSessionsTable;
}
