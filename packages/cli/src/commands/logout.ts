// `anna-app logout [--host <url> | --all]` (R168): forget saved accounts (the current one by
// default). Unlike the published CLI, which only edits the file, we also revoke each forgotten PAT
// on its server when we know its id (logins made by this CLI record it), so a token that was
// copied off the machine stops working too; `--keep-token` skips that.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, EXIT_REQUEST_FAILED, ExitError, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { canonicalHost } from "../account/canonical-host.js";
import {
  displayPath,
  loadCredentials,
  saveCredentials,
  withoutAccount,
  type SavedAccount,
} from "../account/credentials-file.js";
import { revokeSavedToken, type RevokeOutcome } from "../account/revoke-saved-token.js";
import type { CommandModule } from "./registry.js";

const NAME = "logout";

const spec: CommandSpec = {
  name: NAME,
  summary: "Forget a saved account (the current one, --host <url>, or --all) and revoke its PAT",
  description:
    "Removes the account from the credentials file; when the removed account was current, the " +
    "first remaining one becomes current. Tokens from this CLI's logins are also revoked on the " +
    "server (best effort; --keep-token to skip). Exit 5 when --host names no saved account.",
  flags: [
    { name: "host", type: "string", value: "<url>", description: "The account to forget" },
    { name: "all", type: "boolean", description: "Forget every saved account" },
    {
      name: "keep-token",
      type: "boolean",
      description: "Only edit the file; leave the PAT valid on the server",
    },
    {
      name: "json",
      type: "boolean",
      description: "One JSON line: {removed:[{host, revoked}], current}",
    },
  ],
  examples: [
    "anna-app logout",
    "anna-app logout --host https://nexus.example.com",
    "anna-app logout --all --keep-token",
    "anna-app logout --json",
  ],
};

type Revoked = RevokeOutcome | "kept";

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    if (args.positionals.length > 0) {
      throw usageError(`unexpected argument '${args.positionals[0]}'`, NAME);
    }
    const all = args.flags.all === true;
    const hostFlag = typeof args.flags.host === "string" ? args.flags.host : undefined;
    if (all && hostFlag !== undefined) throw usageError("give --host or --all, not both", NAME);
    const json = args.flags.json === true;
    const loaded = await loadCredentials(io.env);
    const file = displayPath(loaded.path, io.env);
    const saved = Object.keys(loaded.store.accounts);

    let hosts: string[];
    if (all) hosts = saved;
    else if (hostFlag !== undefined) {
      const host = canonicalHost(hostFlag, NAME);
      if (!(host in loaded.store.accounts)) {
        throw new ExitError(
          EXIT_REQUEST_FAILED,
          `no saved account for ${host} in ${file}` +
            (saved.length ? ` (saved: ${saved.join(", ")})` : " (no account is saved)"),
        );
      }
      hosts = [host];
    } else {
      const current = loaded.store.current;
      hosts = current !== null && current in loaded.store.accounts ? [current] : [];
    }

    if (hosts.length === 0) {
      if (json) io.stdout.write(JSON.stringify({ removed: [], current: null }) + "\n");
      else io.stdout.write(`not logged in: no account saved in ${file}\n`);
      return EXIT_OK;
    }

    const removed: { host: string; revoked: Revoked }[] = [];
    let store = loaded.store;
    for (const host of hosts) {
      const account = store.accounts[host] as SavedAccount;
      const revoked = args.flags["keep-token"] === true ? "kept" : await revokeSavedToken(account);
      store = withoutAccount(store, host);
      removed.push({ host, revoked });
    }
    await saveCredentials(loaded.path, store);

    if (json) {
      io.stdout.write(JSON.stringify({ removed, current: store.current }) + "\n");
      return EXIT_OK;
    }
    for (const { host, revoked } of removed) {
      const note =
        revoked === "revoked"
          ? "its token is revoked on the server"
          : revoked === "kept"
            ? "its token stays valid on the server (--keep-token)"
            : revoked === "unknown-id"
              ? "its token stays valid until it expires: that login did not record the token's id (the published CLI does not); log in again and use anna-app token list and token revoke to end it"
              : `its token could not be revoked (${revoked.slice("failed: ".length)}); it stays valid until it expires`;
      io.stdout.write(`${io.style.green("✓")} logged out of ${host}: ${note}\n`);
    }
    if (store.current !== null) io.stdout.write(`current account is now ${store.current}\n`);
    return EXIT_OK;
  },
};
