// Per-invoke tokens under `executa dev` (H15): minted with an in-memory dev key, so plugins see
// `sampling_token`, `storage_token`, … in `context` as they do in production. The key is made in
// the background while the plugin starts instead of delaying the launch.
import { createDevTokenIssuer, type TokenIssuer } from "@anna-ai/executa-host";

export function backgroundDevTokenIssuer(): TokenIssuer {
  const issuer = createDevTokenIssuer();
  // Surfaces on the first mint; keep an early failure from being an unhandled rejection.
  issuer.catch(() => undefined);
  return {
    mint: async (claims) => (await issuer).mint(claims),
    verify: async (token, audience, binding) => (await issuer).verify(token, audience, binding),
    jwks: async () => (await issuer).jwks(),
  };
}
