// `anna-app account set-handle <handle>` (R168, real-world-cli.md §2): PUT
// /api/v1/developer/profile/handle `{handle}` with the saved PAT; the namespace apps publish under.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { ACCOUNT_FLAG, accountFlag, selectAccount } from "../account/select-account.js";
import type { CommandModule } from "./registry.js";

const NAME = "account set-handle";

const spec: CommandSpec = {
  name: NAME,
  summary: "Set or rename your developer @handle, the namespace your apps publish under",
  description:
    "A handle is 2–39 characters: lowercase letters, digits and single hyphens. Required before " +
    "your first app. Exit 2 when not logged in or the token is rejected, 5 when the server " +
    "refuses the handle (taken, reserved, invalid).",
  positionals: [{ name: "handle", description: "The new handle, without the @", required: true }],
  flags: [
    ACCOUNT_FLAG,
    { name: "host", type: "string", value: "<url>", description: "Same as --account" },
    { name: "json", type: "boolean", description: "One JSON line: {host, handle}" },
  ],
  examples: [
    "anna-app account set-handle ada",
    "anna-app account set-handle ada --host http://127.0.0.1:8080",
    "anna-app account set-handle ada-lovelace --account https://nexus.example.com --json",
  ],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    const [raw, extra] = args.positionals;
    if (raw === undefined) throw usageError("give the handle, e.g. account set-handle ada", NAME);
    if (extra !== undefined) throw usageError(`unexpected argument '${extra}'`, NAME);
    if (typeof args.flags.account === "string" && typeof args.flags.host === "string") {
      throw usageError("give --account or --host, not both", NAME);
    }
    const handle = raw.replace(/^@/, "");
    const { client, host } = await selectAccount(io.env, {
      command: NAME,
      account: accountFlag(args.flags),
    });
    const res = await client.put<{ handle?: unknown }>("/api/v1/developer/profile/handle", {
      body: { handle },
      what: "setting the handle",
    });
    const saved = typeof res.body?.handle === "string" ? res.body.handle : handle;
    if (args.flags.json === true) io.stdout.write(JSON.stringify({ host, handle: saved }) + "\n");
    else io.stdout.write(`${io.style.green("✓")} your handle on ${host} is @${saved}\n`);
    return EXIT_OK;
  },
};
