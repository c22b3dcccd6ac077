// `anna-app login --host <url> [--no-browser]` (R168, spec L7495–7520, real-world-cli.md §1):
// the device flow, then the PAT saved to the credentials file both CLIs share. Ctrl-C while
// waiting ends it with nothing saved (exit 130).
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, EXIT_SIGINT, ExitError, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { canonicalHost } from "../account/canonical-host.js";
import {
  displayPath,
  loadCredentials,
  saveCredentials,
  withAccount,
  type SavedAccount,
} from "../account/credentials-file.js";
import { pollDeviceLogin, startDeviceLogin } from "../account/device-login.js";
import { fetchMe, type Me } from "../account/me.js";
import { NexusClient } from "../account/nexus-client.js";
import { revokeSavedToken } from "../account/revoke-saved-token.js";
import { openBrowser } from "../dev/open-browser.js";
import type { CommandModule } from "./registry.js";

const NAME = "login";
const DAY_S = 86_400;

const spec: CommandSpec = {
  name: NAME,
  summary: "Log in to a Nexus with the device flow and save a developer token (PAT)",
  description:
    "Prints a one-time code and a link (and opens it in your browser unless --no-browser or " +
    "ANNA_LOGIN_NO_OPEN=1); approve there while signed in. The token is saved to " +
    "$XDG_CONFIG_HOME/anna/credentials.json or ~/.config/anna/credentials.json (mode 600), the " +
    "same file the published @anna-ai/cli uses, and becomes the current account. Exit 1 when the " +
    "code expires or the server fails, 2 on a bad --host, 130 on Ctrl-C.",
  flags: [
    {
      name: "host",
      type: "string",
      value: "<url>",
      description: "The Nexus to log in to (required), e.g. https://nexus.example.com",
    },
    { name: "no-browser", type: "boolean", description: "Print the link; do not open a browser" },
    {
      name: "json",
      type: "boolean",
      description: "On success one JSON line: {host, user_id, email, scopes, expires_at, file}",
    },
  ],
  examples: [
    "anna-app login --host https://nexus.example.com",
    "anna-app login --host http://127.0.0.1:8080 --no-browser",
    "ANNA_LOGIN_NO_OPEN=1 anna-app login --host http://127.0.0.1:8080 --json",
  ],
};

const TRUE_WORDS = /^(1|true|yes|on)$/i;

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    if (args.positionals.length > 0) {
      throw usageError(`unexpected argument '${args.positionals[0]}'`, NAME);
    }
    const hostFlag = args.flags.host;
    if (typeof hostFlag !== "string") {
      throw usageError("--host <url> is required, e.g. --host https://nexus.example.com", NAME);
    }
    const host = canonicalHost(hostFlag, NAME);
    const json = args.flags.json === true;
    // Instructions are for the person; with --json they go to stderr so stdout stays one line.
    const say = (line: string) => (json ? io.stderr : io.stdout).write(line + "\n");
    const style = json ? io.errStyle : io.style;

    const abort = new AbortController();
    const onSigint = () => abort.abort();
    process.once("SIGINT", onSigint);
    const progress = progressLine(io);
    try {
      const client = new NexusClient({ host });
      const start = await startDeviceLogin(client, abort.signal);
      say(`Your one-time code: ${style.bold(start.userCode)}`);
      say(`Approve this login at ${style.cyan(start.verificationUrl)}`);
      const noBrowser =
        args.flags["no-browser"] === true || TRUE_WORDS.test(io.env.ANNA_LOGIN_NO_OPEN ?? "");
      if (!noBrowser) {
        openBrowser(start.verificationUrl, io.env, (m) =>
          io.stderr.write(`${io.errStyle.yellow("!")} ${m.replace(/^--open: /, "")}\n`),
        );
      }
      say(style.dim(`Waiting for approval (Ctrl-C to cancel)…`));
      const grant = await pollDeviceLogin(client, start, {
        signal: abort.signal,
        onWait: (remainingMs) => progress.update(remainingMs),
      });
      progress.clear();

      const authed = new NexusClient({ host, pat: grant.pat });
      // Best effort: naming the account is nice, but the login itself already succeeded.
      const me: Me | undefined = await fetchMe(authed, abort.signal).catch(() => undefined);
      const nowS = Math.floor(Date.now() / 1000);
      const account: SavedAccount = {
        host,
        user_id: me?.id ?? null,
        pat: grant.pat,
        issued_at: nowS,
        // 0 = unknown: `now + 0` (what the published CLI writes) would read as already expired.
        expires_at: grant.expiresInS > 0 ? nowS + grant.expiresInS : 0,
        scopes: grant.scopes,
        ...(grant.tokenId === undefined ? {} : { token_id: grant.tokenId }),
        ...(me?.email === undefined ? {} : { email: me.email }),
      };
      const loaded = await loadCredentials(io.env);
      const replaced = loaded.store.accounts[host];
      await saveCredentials(loaded.path, withAccount(loaded.store, account));
      // The token this login replaces would otherwise stay valid for the rest of its 90 days.
      if (replaced !== undefined && replaced.token_id !== grant.tokenId) {
        const outcome = await revokeSavedToken(replaced);
        if (outcome.startsWith("failed: ")) {
          io.stderr.write(
            `${io.errStyle.yellow("!")} the previous token for ${host} could not be revoked (${outcome.slice(8)}); it stays valid until it expires\n`,
          );
        }
      }
      const file = displayPath(loaded.path, io.env);
      if (json) {
        io.stdout.write(
          JSON.stringify({
            host,
            user_id: account.user_id,
            email: me?.email ?? null,
            scopes: account.scopes,
            expires_at: account.expires_at || null,
            file: loaded.path,
          }) + "\n",
        );
      } else {
        const who = me?.email ? ` as ${me.email}` : "";
        const days =
          grant.expiresInS > 0 ? ` (expires in ~${Math.round(grant.expiresInS / DAY_S)}d)` : "";
        io.stdout.write(
          `${io.style.green("✓")} logged in to ${host}${who}. PAT saved to ${file}${days}\n`,
        );
      }
      return EXIT_OK;
    } catch (error) {
      progress.clear();
      if (abort.signal.aborted) {
        throw new ExitError(EXIT_SIGINT, "login cancelled; nothing was saved");
      }
      throw error;
    } finally {
      process.off("SIGINT", onSigint);
    }
  },
};

/** `⠋ waiting… 9:41 left` rewritten in place on a terminal; silent when stderr is a pipe. */
function progressLine(io: CliIo): { update(remainingMs: number): void; clear(): void } {
  const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
  let i = 0;
  let shown = false;
  const tty = io.stderr.isTTY === true;
  return {
    update(remainingMs) {
      if (!tty) return;
      const s = Math.ceil(remainingMs / 1000);
      const left = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
      io.stderr.write(`\r${frames[i++ % frames.length]} waiting for approval… ${left} left `);
      shown = true;
    },
    clear() {
      if (shown) io.stderr.write("\r\u001b[K");
      shown = false;
    },
  };
}
