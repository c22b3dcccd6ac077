// `credentials.*` (R151): the user's platform-authorized accounts. Two layers: the manifest's
// `ui.host_api.credentials` lists provider ids (a non-empty list opens the namespace, the ACL's
// job; the requested provider must be in it, checked here → `permission_denied`), and the user's
// `credentials_grant` (`DispatcherOptions.credentialsGrant`), checked by the CredentialsService
// → `APP_NOT_GRANTED` with a reconnect hint, as are dead credentials.
import type { CredentialsService, CredentialsServiceContext } from "@anna-ai/executa-host";
import { HostApiError } from "../errors/host-api-error.js";
import { callService, requireService } from "../dispatcher/service-errors.js";
import type { CallContext, MethodTable } from "../dispatcher/types.js";
import { contractMethod } from "./contract-method.js";
import { appServiceContext } from "./service-context.js";

function credentials(ctx: CallContext, provider: string): CredentialsService {
  const declared = ctx.core.manifest.ui?.host_api?.credentials ?? [];
  if (!declared.includes(provider)) {
    throw new HostApiError(
      "permission_denied",
      `credentials provider ${JSON.stringify(provider)} is not granted: add it to manifest ui.host_api.credentials (declared: ${declared.join(", ") || "none"})`,
      { provider },
    );
  }
  return requireService(ctx, "credentials");
}

/** Empty `providers` in the user's grant means every provider the manifest declares (R151). */
function credentialsContext(ctx: CallContext): CredentialsServiceContext {
  const grant = ctx.core.credentialsGrant;
  const providers =
    grant.providers === undefined || grant.providers.length === 0
      ? (ctx.core.manifest.ui?.host_api?.credentials ?? [])
      : grant.providers;
  return { ...appServiceContext(ctx, {}), grant: { ...grant, providers } };
}

export function credentialsMethods(): MethodTable {
  return {
    "credentials.list_accounts": contractMethod("credentials.list_accounts", (args, ctx) =>
      callService(ctx, () =>
        credentials(ctx, args.provider).listAccounts(
          { provider: args.provider },
          credentialsContext(ctx),
        ),
      ),
    ),
    "credentials.get_token": contractMethod("credentials.get_token", (args, ctx) =>
      callService(ctx, () =>
        credentials(ctx, args.provider).getToken(
          {
            provider: args.provider,
            ...(args.account_id == null ? {} : { account_id: args.account_id }),
          },
          credentialsContext(ctx),
        ),
      ),
    ),
  };
}
