// The audience (`aud`) of each token family. Families are executa-host's (GrantFamily); the
// spec names the audiences (L1225–1226, L3195, L7177, L9688) and executa-host already holds them
// (TOKEN_AUDIENCES). The per-family table follows what executa-host's reverse-RPC router mints,
// so a token Nexus verifies is the token the router handed out.
import { type GrantFamily, TOKEN_AUDIENCES } from "@anna-ai/executa-host";

/** `app_session_token` of `…/dev/session/mint` (L7177: audience `aps-llm`). */
export const APP_SESSION_AUDIENCE = "aps-llm";
/** The `type` claim of an app session token (L7177). */
export const APP_SESSION_TOKEN_TYPE = "anna_app_session";

/** `web/*` calls carry no token (the router mints none for them), so web has no audience. */
export const FAMILY_AUDIENCES = {
  // The router's `sampling_token` also covers agent sessions and embeddings.
  sampling: TOKEN_AUDIENCES.sampling,
  agent: TOKEN_AUDIENCES.sampling,
  embeddings: TOKEN_AUDIENCES.sampling,
  // One `storage_token` authorises `storage/*` and `files/*` (L1226).
  storage: TOKEN_AUDIENCES.storage,
  files: TOKEN_AUDIENCES.storage,
  image: TOKEN_AUDIENCES.image,
  upload: TOKEN_AUDIENCES.upload,
  credentials: TOKEN_AUDIENCES.credentials,
} as const satisfies Record<Exclude<GrantFamily, "web">, string>;
