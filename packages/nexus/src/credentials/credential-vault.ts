// The credential values users enter for their executas' declared credentials (spec
// "Credentials", H10), sealed at rest with the server's key-encryption key: the same AES-256-GCM
// sealing and the same KEK (ANNA_TOKEN_KEK or the data folder's key file) as the signing keys.
// Values leave this module only one way, `forInvoke`, on their way into an invoke's
// `context.credentials`; every other answer says which fields are set, never what they hold.
import type { Kysely } from "kysely";
import type { Clock } from "../core/clock.js";
import { NexusError } from "../core/errors.js";
import type { Database } from "../db/schema.js";
import {
  type KeyEncryptionKey,
  KeyEncryptionError,
  KEK_ENV,
  KEK_FILE,
} from "../tokens/key-encryption.js";
import { type DeclaredCredential, declaredCredentials } from "./declared-credentials.js";

/** One value: an API key, a bearer token, a JWT. Anything longer is not a credential. */
export const MAX_CREDENTIAL_VALUE_BYTES = 8 * 1024;
/** Fields one executa may have set (bounds a PUT and the context of every invoke). */
export const MAX_CREDENTIAL_FIELDS = 64;

export interface CredentialFieldView {
  name: string;
  display_name: string;
  description: string | null;
  required: boolean;
  sensitive: boolean;
  /** The declared default of a non-sensitive field (null for sensitive ones). */
  default: string | null;
  is_set: boolean;
  updated_at: string | null;
}

export interface ExecutaCredentialsView {
  tool_id: string;
  credentials: CredentialFieldView[];
  /** Every required field is set. */
  complete: boolean;
}

export interface CredentialVault {
  /** Declared fields and which are set; not_found when the user has no such executa. */
  view(userId: number, toolId: string): Promise<ExecutaCredentialsView>;
  /** Sets the named fields (a null clears that one); others stay as they are. */
  set(
    userId: number,
    toolId: string,
    values: Readonly<Record<string, string | null>>,
  ): Promise<ExecutaCredentialsView>;
  /** Clears every value the user entered for the executa. */
  clear(userId: number, toolId: string): Promise<ExecutaCredentialsView>;
  /**
   * The pool's per-invoke hook (H10): `{NAME: value}` of the declared fields the user set, or
   * undefined when none is (the invoke then carries no `context.credentials`). The pool's user id
   * is the Nexus user id as a string; any other id (the describe user) has none.
   */
  forInvoke(userId: string, toolId: string): Promise<Readonly<Record<string, string>> | undefined>;
}

/** Bound into each sealed value: a value copied into another row (user, tool, name) won't open. */
function aad(userId: number, toolId: string, name: string): string {
  return `executa-credential:${userId}:${toolId}:${name}`;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function sqlCredentialVault(deps: {
  db: Kysely<Database>;
  kek: KeyEncryptionKey;
  clock: Clock;
}): CredentialVault {
  const { db, kek, clock } = deps;

  async function declared(userId: number, toolId: string): Promise<DeclaredCredential[]> {
    const found = await declaredCredentials(db, userId, toolId);
    if (found === undefined) {
      throw new NexusError(
        "not_found",
        `you have no executa '${toolId.slice(0, 200)}': install it (or an app that requires it) before entering its credentials`,
      );
    }
    return found;
  }

  async function setRows(userId: number, toolId: string) {
    return db
      .selectFrom("executa_credentials")
      .select(["name", "sealed", "updated_at"])
      .where("user_id", "=", userId)
      .where("tool_id", "=", toolId)
      .limit(MAX_CREDENTIAL_FIELDS)
      .execute();
  }

  async function view(userId: number, toolId: string): Promise<ExecutaCredentialsView> {
    const fields = await declared(userId, toolId);
    const rows = new Map((await setRows(userId, toolId)).map((r) => [r.name, r]));
    const credentials = fields.map((f) => {
      const row = rows.get(f.name);
      return {
        name: f.name,
        display_name: f.displayName,
        description: f.description,
        required: f.required,
        sensitive: f.sensitive,
        default: f.default,
        is_set: row !== undefined,
        updated_at: row === undefined ? null : iso(Number(row.updated_at)),
      };
    });
    return {
      tool_id: toolId,
      credentials,
      complete: credentials.every((c) => !c.required || c.is_set),
    };
  }

  function checked(
    fields: DeclaredCredential[],
    toolId: string,
    values: Readonly<Record<string, string | null>>,
  ): [string, string | null][] {
    const names = new Set(fields.map((f) => f.name));
    const declaredList = fields.length === 0 ? "none" : [...names].join(", ");
    const entries = Object.entries(values);
    const unknown = entries.map(([k]) => k).filter((k) => !names.has(k));
    if (unknown.length > 0) {
      throw new NexusError(
        "validation_failed",
        `${toolId} declares no credential ${unknown.map((u) => `'${u.slice(0, 100)}'`).join(", ")}; its declared credentials are: ${declaredList}`,
        { details: { unknown: unknown.map((u) => u.slice(0, 100)), declared: [...names] } },
      );
    }
    for (const [name, value] of entries) {
      if (value === null) continue;
      if (value === "") {
        throw new NexusError(
          "validation_failed",
          `${name}: an empty value is not a credential; send null to clear it`,
        );
      }
      if (Buffer.byteLength(value, "utf8") > MAX_CREDENTIAL_VALUE_BYTES) {
        throw new NexusError(
          "payload_too_large",
          `${name}: a credential value is at most ${MAX_CREDENTIAL_VALUE_BYTES} bytes`,
        );
      }
    }
    return entries;
  }

  return {
    view,

    async set(userId, toolId, values) {
      const entries = checked(await declared(userId, toolId), toolId, values);
      const now = clock.now();
      await db.transaction().execute(async (tx) => {
        for (const [name, value] of entries) {
          if (value === null) {
            await tx
              .deleteFrom("executa_credentials")
              .where("user_id", "=", userId)
              .where("tool_id", "=", toolId)
              .where("name", "=", name)
              .execute();
            continue;
          }
          const sealed = kek.seal(value, aad(userId, toolId, name));
          await tx
            .insertInto("executa_credentials")
            .values({
              user_id: userId,
              tool_id: toolId,
              name,
              sealed,
              created_at: now,
              updated_at: now,
            })
            .onConflict((oc) =>
              oc.columns(["user_id", "tool_id", "name"]).doUpdateSet({ sealed, updated_at: now }),
            )
            .execute();
        }
      });
      return view(userId, toolId);
    },

    async clear(userId, toolId) {
      await declared(userId, toolId);
      await db
        .deleteFrom("executa_credentials")
        .where("user_id", "=", userId)
        .where("tool_id", "=", toolId)
        .execute();
      return view(userId, toolId);
    },

    async forInvoke(poolUserId, toolId) {
      if (!/^[1-9][0-9]{0,14}$/.test(poolUserId)) return undefined;
      const userId = Number(poolUserId);
      const fields = await declaredCredentials(db, userId, toolId);
      if (fields === undefined || fields.length === 0) return undefined;
      const names = new Set(fields.map((f) => f.name));
      const out: Record<string, string> = {};
      for (const row of await setRows(userId, toolId)) {
        // A value for a name the current version no longer declares stays stored, unsent.
        if (!names.has(row.name)) continue;
        try {
          out[row.name] = kek.open(row.sealed, aad(userId, toolId, row.name));
        } catch (err) {
          if (!(err instanceof KeyEncryptionError)) throw err;
          throw new NexusError(
            "internal",
            `the credential ${row.name} of ${toolId} cannot be opened with the key-encryption key from ${kek.source}: it was sealed with another one (set ${KEK_ENV} or restore ${KEK_FILE} in the data folder), or the row was altered`,
            { cause: err },
          );
        }
      }
      return Object.keys(out).length === 0 ? undefined : out;
    },
  };
}
