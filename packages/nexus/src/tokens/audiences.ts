// The audience (`aud`) of each token family. Families are executa-host's (GRANT_FAMILIES); the
// spec names five audiences (L1225–1226, L3195, L7177, L9688) and executa-host already holds
// those, so this table only adds the ones the spec leaves open (docs/decisions-pending/h-tokens.md).
import { type GrantFamily, TOKEN_AUDIENCES } from "@anna-ai/executa-host";

/** `app_session_token` of `…/dev/session/mint` (L7177: audience `aps-llm`). */
export const APP_SESSION_AUDIENCE = "aps-llm";
/** The `type` claim of an app session token (L7177). */
export const APP_SESSION_TOKEN_TYPE = "anna_app_session";

export const FAMILY_AUDIENCES: Readonly<Record<GrantFamily, string>> = {
  sampling: TOKEN_AUDIENCES.sampling,
  // Agent sessions and embeddings are served by the app-session surface (`/copilot/app/*`).
  agent: APP_SESSION_AUDIENCE,
  embeddings: APP_SESSION_AUDIENCE,
  // One storage_token authorises `storage/*` and `files/*` (L1226).
  storage: TOKEN_AUDIENCES.storage,
  files: TOKEN_AUDIENCES.storage,
  image: TOKEN_AUDIENCES.image,
  upload: TOKEN_AUDIENCES.upload,
  credentials: TOKEN_AUDIENCES.credentials,
  web: "executa-web",
};
