// `credentials.*` (R151): the user's platform-authorized accounts. A provider outside the
// manifest's `ui.host_api.credentials` answers `permission_denied`; the user's grant (or a dead
// credential) `APP_NOT_GRANTED` with a reconnect hint.
import { z } from "zod";
import {
  CredentialsGetTokenResultSchema,
  CredentialsListAccountsResultSchema,
} from "../executa/credentials.js";
import { hostMethod, SERVICE_ERROR_CODES } from "./method-contract.js";

export const CREDENTIALS_CONTRACT = {
  "credentials.list_accounts": hostMethod(
    () => z.looseObject({ provider: z.string().min(1) }),
    () => CredentialsListAccountsResultSchema,
    SERVICE_ERROR_CODES,
  ),
  /** The recorder redacts `access_token`: it never reaches a file. */
  "credentials.get_token": hostMethod(
    () => z.looseObject({ provider: z.string().min(1), account_id: z.string().min(1).nullish() }),
    () => CredentialsGetTokenResultSchema,
    SERVICE_ERROR_CODES,
  ),
} as const;
