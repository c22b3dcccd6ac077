// The platform OAuth providers an operator configured (spec "Credentials & platform
// authorization": users connect a provider once at /settings/authorizations and every plugin
// declaring one of its credential names gets the token). None by default: a provider exists
// only when the operator gives its client id and secret. `google` and `twitter` (alias `x`) are
// presets whose URLs and credential names are the real ones (each overridable); any other id is
// a generic OAuth2 authorization-code provider with PKCE, all of whose URLs must be given.
import { OAUTH_CREDENTIAL_ALIASES } from "@anna-ai/executa-host";

/** How the client authenticates at the token endpoint (RFC 6749 §2.3.1). */
export type TokenEndpointAuth = "basic" | "body";

export interface OAuthProvider {
  /** The provider id plugins name in `credentials/*` (`google`, `twitter`, `acme`). */
  id: string;
  /** Shown on the settings page. */
  name: string;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** Where the account's identity (id, email, name) is read after the code exchange. */
  userinfoUrl: string | undefined;
  /** RFC 7009 revocation, called on disconnect where the provider has one. */
  revokeUrl: string | undefined;
  /** The scopes a connect asks for by default; a user may pick a subset (least privilege). */
  scopes: readonly string[];
  /** Extra query parameters of the authorize URL (Google's `access_type=offline`). */
  authorizeParams: Readonly<Record<string, string>>;
  tokenAuth: TokenEndpointAuth;
  /** The credential names whose `credential_mapping` value is `$access_token`. */
  credentialNames: readonly string[];
}

type Preset = Omit<OAuthProvider, "id" | "clientId" | "clientSecret">;

/** The real endpoints (Google's OAuth 2.0 and OpenID docs; X's OAuth 2.0 with PKCE). */
export const OAUTH_PRESETS: Readonly<Record<string, Preset>> = {
  google: {
    name: "Google",
    authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
    tokenUrl: "https://oauth2.googleapis.com/token",
    userinfoUrl: "https://openidconnect.googleapis.com/v1/userinfo",
    revokeUrl: "https://oauth2.googleapis.com/revoke",
    scopes: ["openid", "email", "profile"],
    // A refresh token, and the account chooser so a second Gmail account can be connected.
    authorizeParams: { access_type: "offline", prompt: "consent select_account" },
    tokenAuth: "body",
    credentialNames: OAUTH_CREDENTIAL_ALIASES.google ?? [],
  },
  twitter: {
    name: "X (Twitter)",
    authorizeUrl: "https://x.com/i/oauth2/authorize",
    tokenUrl: "https://api.x.com/2/oauth2/token",
    userinfoUrl: "https://api.x.com/2/users/me",
    revokeUrl: "https://api.x.com/2/oauth2/revoke",
    scopes: ["tweet.read", "users.read", "offline.access"],
    authorizeParams: {},
    tokenAuth: "basic",
    credentialNames: OAUTH_CREDENTIAL_ALIASES.twitter ?? [],
  },
};

/** `x` is the same preset as `twitter`, whose id the spec's plugins name. */
const PRESET_ALIASES: Readonly<Record<string, string>> = { x: "twitter" };

export const OAUTH_PROVIDERS_ENV = "ANNA_OAUTH_PROVIDERS";
const PROVIDER_ID = /^[a-z][a-z0-9-]{0,39}$/;
const CREDENTIAL_NAME = /^[A-Z][A-Z0-9_]{0,127}$/;
/** More providers than any settings page shows; bounds the registry and the env it reads. */
export const MAX_OAUTH_PROVIDERS = 32;

export class OAuthConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OAuthConfigError";
  }
}

/** `ANNA_OAUTH_<ID>_<FIELD>`, the id upper-cased with `-` as `_`. */
export function providerEnvName(id: string, field: string): string {
  return `ANNA_OAUTH_${id.toUpperCase().replace(/-/g, "_")}_${field}`;
}

function list(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return value.split(/[\s,]+/).filter((v) => v !== "");
}

function httpUrl(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OAuthConfigError(`${name} is not a URL (got '${value.slice(0, 200)}')`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new OAuthConfigError(`${name} must be an https:// URL (got '${url.protocol}')`);
  }
  return url.toString();
}

/**
 * The providers named in `ANNA_OAUTH_PROVIDERS` (comma-separated ids), each from its
 * `ANNA_OAUTH_<ID>_*` variables: CLIENT_ID and CLIENT_SECRET (required), AUTHORIZE_URL,
 * TOKEN_URL, USERINFO_URL, REVOKE_URL, SCOPES, NAME, CREDENTIAL_NAMES, TOKEN_AUTH (basic|body);
 * a preset fills what is not given. Throws OAuthConfigError naming the variable that is wrong.
 */
export function oauthProvidersFromEnv(env: NodeJS.ProcessEnv): OAuthProvider[] {
  const ids = list(env[OAUTH_PROVIDERS_ENV]) ?? [];
  if (ids.length > MAX_OAUTH_PROVIDERS) {
    throw new OAuthConfigError(
      `${OAUTH_PROVIDERS_ENV} names ${ids.length} providers; at most ${MAX_OAUTH_PROVIDERS}`,
    );
  }
  const out = new Map<string, OAuthProvider>();
  for (const raw of ids) {
    const named = raw.toLowerCase();
    if (!PROVIDER_ID.test(named)) {
      throw new OAuthConfigError(
        `${OAUTH_PROVIDERS_ENV}: '${raw.slice(0, 60)}' is not a provider id (a-z, 0-9 and '-', starting with a letter, at most 40)`,
      );
    }
    const id = PRESET_ALIASES[named] ?? named;
    if (out.has(id)) {
      throw new OAuthConfigError(`${OAUTH_PROVIDERS_ENV} names ${id} twice`);
    }
    out.set(id, providerFromEnv(named, id, env));
  }
  return [...out.values()];
}

function providerFromEnv(named: string, id: string, env: NodeJS.ProcessEnv): OAuthProvider {
  const v = (field: string) => {
    const name = providerEnvName(named, field);
    const value = env[name];
    return { name, value: value === undefined || value === "" ? undefined : value };
  };
  const preset = OAUTH_PRESETS[id];
  const required = (field: string, fallback?: string): string => {
    const { name, value } = v(field);
    const got = value ?? fallback;
    if (got === undefined) {
      throw new OAuthConfigError(
        `${OAUTH_PROVIDERS_ENV} names ${named}, but ${name} is not set` +
          (preset === undefined ? ` (${named} is not a preset: give every URL)` : ""),
      );
    }
    return got;
  };
  const url = (field: string, fallback: string | undefined) =>
    httpUrl(v(field).name, v(field).value) ?? fallback;
  const authorizeUrl = httpUrl(
    v("AUTHORIZE_URL").name,
    required("AUTHORIZE_URL", preset?.authorizeUrl),
  );
  const tokenUrl = httpUrl(v("TOKEN_URL").name, required("TOKEN_URL", preset?.tokenUrl));
  const tokenAuth = v("TOKEN_AUTH").value ?? preset?.tokenAuth ?? "basic";
  if (tokenAuth !== "basic" && tokenAuth !== "body") {
    throw new OAuthConfigError(`${v("TOKEN_AUTH").name} is basic or body (got '${tokenAuth}')`);
  }
  const credentialNames = list(v("CREDENTIAL_NAMES").value) ?? [...(preset?.credentialNames ?? [])];
  for (const name of credentialNames) {
    if (!CREDENTIAL_NAME.test(name)) {
      throw new OAuthConfigError(
        `${v("CREDENTIAL_NAMES").name}: '${name.slice(0, 60)}' is not a credential name (A-Z, 0-9 and '_', like GOOGLE_ACCESS_TOKEN)`,
      );
    }
  }
  return {
    id,
    name: v("NAME").value ?? preset?.name ?? id,
    clientId: required("CLIENT_ID"),
    clientSecret: required("CLIENT_SECRET"),
    authorizeUrl: authorizeUrl!,
    tokenUrl: tokenUrl!,
    userinfoUrl: url("USERINFO_URL", preset?.userinfoUrl),
    revokeUrl: url("REVOKE_URL", preset?.revokeUrl),
    scopes: list(v("SCOPES").value) ?? [...(preset?.scopes ?? [])],
    authorizeParams: preset?.authorizeParams ?? {},
    tokenAuth,
    credentialNames,
  };
}

/** The configured providers by id, and which provider a credential name maps to. */
export class OAuthRegistry {
  readonly #byId: ReadonlyMap<string, OAuthProvider>;

  constructor(providers: readonly OAuthProvider[]) {
    this.#byId = new Map(providers.map((p) => [p.id, p]));
  }

  get providers(): OAuthProvider[] {
    return [...this.#byId.values()];
  }

  get(id: string): OAuthProvider | undefined {
    return this.#byId.get(id);
  }

  /** The provider whose `$access_token` a credential name receives, if any is configured. */
  providerForCredential(name: string): OAuthProvider | undefined {
    return this.providers.find((p) => p.credentialNames.includes(name));
  }

  /**
   * The router's alias table: the spec's first-class names (so a plugin declaring
   * GOOGLE_ACCESS_TOKEN gets a token, and its call says plainly when google is not configured)
   * with the configured providers' own names.
   */
  credentialAliases(): Record<string, readonly string[]> {
    const out: Record<string, readonly string[]> = { ...OAUTH_CREDENTIAL_ALIASES };
    for (const p of this.#byId.values()) out[p.id] = p.credentialNames;
    return out;
  }
}
