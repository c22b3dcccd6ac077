import { z } from "zod";
import { reverseCorrelationShape } from "./common.js";

/** Multi-account credentials: `credentials/listAccounts|getToken` (R67, R68). */

export const CredentialsListAccountsParamsSchema = z.looseObject({
  /** Provider id (`google`), not a credential name. */
  provider: z.string().min(1),
  ...reverseCorrelationShape,
});
export type CredentialsListAccountsParams = z.infer<typeof CredentialsListAccountsParamsSchema>;

export const CredentialAccountSchema = z.object({
  account_id: z.string(),
  email: z.string().nullable().optional(),
  label: z.string().nullable().optional(),
  /** Exactly one account per provider is the default. */
  is_default: z.boolean(),
  status: z.string().optional(),
  scopes: z.array(z.string()).optional(),
});
export type CredentialAccount = z.infer<typeof CredentialAccountSchema>;

export const CredentialsListAccountsResultSchema = z.object({
  accounts: z.array(CredentialAccountSchema),
});
export type CredentialsListAccountsResult = z.infer<typeof CredentialsListAccountsResultSchema>;

export const CredentialsGetTokenParamsSchema = z.looseObject({
  provider: z.string().min(1),
  /** Omitted: the default account. Emails are not accepted. */
  account_id: z.string().nullish(),
  ...reverseCorrelationShape,
});
export type CredentialsGetTokenParams = z.infer<typeof CredentialsGetTokenParamsSchema>;

export const CredentialsGetTokenResultSchema = z.object({
  access_token: z.string(),
  account_id: z.string(),
  expires_at: z.string().nullable(),
});
export type CredentialsGetTokenResult = z.infer<typeof CredentialsGetTokenResultSchema>;
