// Window tokens (U41) signed by the server's keyring: EdDSA with `kid`, the same keys, rotation
// and sealing as the per-invoke tokens, so every node sharing the database checks every node's
// tokens and no second secret needs sealing or distributing. The audience `anna-app-window`
// keeps them apart from the per-invoke families (no route that takes a storage or sampling token
// accepts one, and the reverse). Bound to user, app (`app:<id>` as the tool binding) and window
// (the invoke binding), plus the version; 120 s, refreshed with `auth.refresh`.
import {
  HostApiError,
  WINDOW_TOKEN_AUDIENCE,
  WINDOW_TOKEN_TTL_S,
  type VerifiedWindowToken,
  type WindowTokenService,
} from "@anna-ai/app-core";
import { TokenError } from "@anna-ai/executa-host";
import type { SigningKeyring } from "../tokens/keyring.js";

export function keyringWindowTokens(
  keyring: SigningKeyring,
  ttlSeconds = WINDOW_TOKEN_TTL_S,
): WindowTokenService {
  return {
    ttlSeconds,
    mint(claims) {
      return keyring.mint({
        audience: WINDOW_TOKEN_AUDIENCE,
        userId: claims.userId,
        toolId: `app:${claims.appId}`,
        invokeId: claims.windowUuid,
        extra: { app_id: claims.appId, version_id: claims.versionId },
        ttlSeconds,
      });
    },
    async verify(token): Promise<VerifiedWindowToken> {
      if (typeof token !== "string" || token === "") {
        throw new HostApiError("invalid_token", "no window token: send it in X-Anna-App-Token");
      }
      try {
        const verified = await keyring.verify(token, WINDOW_TOKEN_AUDIENCE);
        const { app_id: appId, version_id: versionId } = verified.claims;
        if (
          typeof appId !== "string" ||
          typeof versionId !== "string" ||
          verified.toolId !== `app:${appId}`
        ) {
          throw new HostApiError("invalid_token", "window token lacks its window binding");
        }
        return {
          windowUuid: verified.invokeId,
          userId: verified.userId,
          appId,
          versionId,
          expiresAtS: verified.expiresAtS,
        };
      } catch (error) {
        if (error instanceof HostApiError || !(error instanceof TokenError)) throw error;
        const reason =
          error.code === "TOKEN_EXPIRED"
            ? "window token has expired: refresh it with auth.refresh"
            : error.code === "TOKEN_WRONG_AUDIENCE"
              ? "this is not a window token"
              : "window token is not valid";
        throw new HostApiError("invalid_token", reason, undefined, { cause: error });
      }
    },
  };
}
