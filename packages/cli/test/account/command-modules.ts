// The account commands, imported up front: a first dynamic import through the registry can take
// longer than a test's timeout on a loaded machine (vitest transforms the whole import graph).
import type { CommandModule } from "../../src/commands/registry.js";
import { command as accountSetHandle } from "../../src/commands/account-set-handle.js";
import { command as login } from "../../src/commands/login.js";
import { command as logout } from "../../src/commands/logout.js";
import { command as tokenList } from "../../src/commands/token-list.js";
import { command as tokenRevoke } from "../../src/commands/token-revoke.js";
import { command as tokenScopes } from "../../src/commands/token-scopes.js";
import { command as whoami } from "../../src/commands/whoami.js";

export const ACCOUNT_COMMANDS: Readonly<Record<string, CommandModule>> = {
  login,
  logout,
  whoami,
  "account set-handle": accountSetHandle,
  "token list": tokenList,
  "token revoke": tokenRevoke,
  "token scopes": tokenScopes,
};
