// The one PAT scope catalogue (served at GET /api/v1/anna-apps/dev/tokens/scopes).
// `aps:dev` is the scope the device login mints (spec L7507); `executas:publish` is named for
// binary uploads (L2546). Later issues add their scopes here, nowhere else.

export const SCOPES = [
  {
    name: "aps:dev",
    description: "Developer CLI: mint dev sessions and storage tokens, manage your tokens and apps",
  },
  { name: "executas:publish", description: "Publish Executas and upload their binaries" },
] as const;

export type Scope = (typeof SCOPES)[number]["name"];

/** What a device login grants when nothing narrower is asked for. */
export const DEFAULT_LOGIN_SCOPES: Scope[] = ["aps:dev", "executas:publish"];

export const PAT_PREFIX = "anna_pat_";
