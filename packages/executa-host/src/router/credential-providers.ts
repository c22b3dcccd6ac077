// Which OAuth providers a plugin's declared credential names unlock for `credentials/*` (R66,
// L9688, L9700): the platform maps names through `find_providers_for_credential` when it mints
// `credentials_token`. The aliases are the Reference's first-class OAuth providers (L9710–L9712);
// API-key providers (GitHub, Notion, Slack) have no account dimension and unlock nothing.

/** OAuth provider id → the credential names that map to it. */
export const OAUTH_CREDENTIAL_ALIASES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  google: [
    "GOOGLE_ACCESS_TOKEN",
    "GMAIL_ACCESS_TOKEN",
    "GOOGLE_WORKSPACE_CLI_TOKEN",
    "GOOGLE_DOCS_ACCESS_TOKEN",
    "GOOGLE_SHEETS_ACCESS_TOKEN",
  ],
  twitter: ["TWITTER_ACCESS_TOKEN", "X_ACCESS_TOKEN"],
});

/** The providers a `credentials_token` would name for these declared credential names, sorted. */
export function providersForCredentials(
  names: readonly string[],
  aliases: Readonly<Record<string, readonly string[]>> = OAUTH_CREDENTIAL_ALIASES,
): string[] {
  return Object.entries(aliases)
    .filter(([, list]) => list.some((alias) => names.includes(alias)))
    .map(([provider]) => provider)
    .sort();
}

/**
 * The token's `providers` claim: the declared providers, narrowed by the grant's list when it
 * names any. Empty means no token (-32061).
 */
export function credentialsClaim(
  declared: readonly string[],
  granted: readonly string[] | undefined,
): string[] {
  if (granted === undefined || granted.length === 0) return [...declared];
  return declared.filter((provider) => granted.includes(provider));
}
