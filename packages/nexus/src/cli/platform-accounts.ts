// The two accounts `npm start` needs on a fresh data folder: the first admin, whose random
// password the banner prints once (only its scrypt hash is stored), and the account that owns the
// example apps, which nobody signs in as: each start mints it a short-lived PAT to publish
// through the same HTTP API a developer's `anna-app` uses, and revokes it afterwards.
import { DEFAULT_SCRYPT, hashPassword, type ScryptParams } from "../auth/password.js";
import { randomSecret } from "../auth/secrets.js";
import { mintPat } from "../routes/tokens.js";
import type { Stores, User } from "../stores/types.js";

/** `.localhost` is reserved (RFC 6761), so no mail to these addresses leaves the machine. */
export const FIRST_ADMIN_EMAIL = "admin@anna.localhost";
export const EXAMPLES_PUBLISHER_EMAIL = "examples@anna.localhost";
export const EXAMPLES_PUBLISHER_HANDLE = "examples";
/** Long enough for every example's publish, review and release; revoked when they are done. */
export const PUBLISHER_TOKEN_TTL_MS = 15 * 60_000;
/** 18 random bytes: 24 base64url characters. */
const PASSWORD_BYTES = 18;

export interface FirstAdmin {
  email: string;
  /** In clear only here, for the banner; never logged and never stored. */
  password: string;
}

/**
 * Creates the first admin when no one but the examples publisher has an account; undefined when
 * someone already does (their password was shown at the start that created it, or they signed up).
 */
export async function ensureFirstAdmin(
  stores: Stores,
  now: number,
  params: ScryptParams = DEFAULT_SCRYPT,
): Promise<FirstAdmin | undefined> {
  const people = (await stores.users.list()).filter((u) => u.email !== EXAMPLES_PUBLISHER_EMAIL);
  if (people.length > 0) return undefined;
  const password = randomSecret(PASSWORD_BYTES);
  await stores.users.create(
    {
      email: FIRST_ADMIN_EMAIL,
      passwordHash: await hashPassword(password, params),
      isAdmin: true,
      isVerified: true,
    },
    now,
  );
  return { email: FIRST_ADMIN_EMAIL, password };
}

export interface PublisherToken {
  pat: string;
  user: User;
  revoke(now: number): Promise<void>;
}

/**
 * A PAT of the examples publisher (created on first use: a verified developer with the handle
 * `examples`, and an admin so it can approve its own example submissions; its password is random
 * and thrown away, so it cannot sign in).
 */
export async function examplesPublisherToken(
  stores: Stores,
  now: number,
  params: ScryptParams = DEFAULT_SCRYPT,
): Promise<PublisherToken> {
  const found = await stores.users.findCredentials(EXAMPLES_PUBLISHER_EMAIL);
  const user =
    found?.user ??
    (await stores.users.create(
      {
        email: EXAMPLES_PUBLISHER_EMAIL,
        passwordHash: await hashPassword(randomSecret(32), params),
        isAdmin: true,
        isVerified: true,
        developer: true,
        handle: EXAMPLES_PUBLISHER_HANDLE,
      },
      now,
    ));
  const { pat, token } = await mintPat(stores, {
    userId: user.id,
    scopes: ["aps:dev", "executas:publish"],
    label: "npm start: example apps",
    now,
    ttlMs: PUBLISHER_TOKEN_TTL_MS,
  });
  return {
    pat,
    user,
    revoke: async (at) => {
      await stores.tokens.revoke(user.id, token.id, at);
    },
  };
}
