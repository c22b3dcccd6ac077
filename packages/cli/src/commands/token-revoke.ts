// `anna-app token revoke <id>` (R173): POST …/dev/tokens/{id}/revoke → 204. The id is checked to
// be a positive integer before anything is sent, as the published CLI does.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { loginHint } from "../account/nexus-error.js";
import { ACCOUNT_FLAG, accountFlag, selectAccount } from "../account/select-account.js";
import type { CommandModule } from "./registry.js";

const NAME = "token revoke";

const spec: CommandSpec = {
  name: NAME,
  summary: "Revoke one of your developer tokens by its id (see anna-app token list)",
  description:
    "The token stops working at once (401 token_revoked). Revoking the token this CLI uses " +
    "logs this machine out of that server too. Exit 5 when no token has that id.",
  positionals: [{ name: "id", description: "The token's id, a positive integer", required: true }],
  flags: [
    ACCOUNT_FLAG,
    { name: "json", type: "boolean", description: "One JSON line: {host, revoked: <id>}" },
  ],
  examples: [
    "anna-app token revoke 3",
    "anna-app token revoke 3 --account https://nexus.example.com --json",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const [raw, extra] = args.positionals;
    if (raw === undefined) throw usageError("give the token id, e.g. token revoke 3", NAME);
    if (extra !== undefined) throw usageError(`unexpected argument '${extra}'`, NAME);
    if (!/^[1-9]\d{0,15}$/.test(raw)) {
      throw usageError(`token id must be a positive integer (got '${raw}')`, NAME);
    }
    const id = Number(raw);
    const { client, host, saved } = await selectAccount(io.env, {
      command: NAME,
      account: accountFlag(args.flags),
    });
    await client.post(`/api/v1/anna-apps/dev/tokens/${id}/revoke`, {
      what: `revoking token ${id}`,
    });
    if (args.flags.json === true) {
      io.stdout.write(JSON.stringify({ host, revoked: id }) + "\n");
      return EXIT_OK;
    }
    io.stdout.write(`${io.style.green("✓")} revoked token ${id} on ${host}\n`);
    if (saved?.token_id === id) {
      io.stdout.write(`that was the token this CLI uses; ${loginHint(host)} to log in again\n`);
    }
    return EXIT_OK;
  },
};
