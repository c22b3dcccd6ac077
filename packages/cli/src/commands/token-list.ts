// `anna-app token list [--include-revoked]` (R173): the caller's PATs, most recent first. The
// token this CLI is using is marked, when its id was recorded at login.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { scopeList } from "../account/account-view.js";
import { ACCOUNT_FLAG, accountFlag, selectAccount } from "../account/select-account.js";
import type { CommandModule } from "./registry.js";

const NAME = "token list";

const spec: CommandSpec = {
  name: NAME,
  summary: "List your developer tokens (PATs), most recent first",
  description:
    "Shows id, label, scopes, creation, expiry and last use of each token; never the secret. " +
    "The token this CLI uses is marked with *.",
  flags: [
    { name: "include-revoked", type: "boolean", description: "Also list revoked tokens" },
    ACCOUNT_FLAG,
    { name: "json", type: "boolean", description: "One JSON line: {host, tokens:[…]} as served" },
  ],
  examples: [
    "anna-app token list",
    "anna-app token list --include-revoked --json",
    "anna-app token list --account https://nexus.example.com",
  ],
};

interface TokenRow {
  id?: unknown;
  label?: unknown;
  scopes?: unknown;
  created_at?: unknown;
  expires_at?: unknown;
  last_used_at?: unknown;
  revoked_at?: unknown;
}

const day = (v: unknown) => (typeof v === "string" && v !== "" ? v.slice(0, 10) : "—");

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    if (args.positionals.length > 0) {
      throw usageError(`unexpected argument '${args.positionals[0]}'`, NAME);
    }
    const { client, host, saved } = await selectAccount(io.env, {
      command: NAME,
      account: accountFlag(args.flags),
    });
    const res = await client.get<{ tokens?: unknown }>("/api/v1/anna-apps/dev/tokens", {
      what: "listing tokens",
      query: { include_revoked: args.flags["include-revoked"] === true ? "true" : undefined },
    });
    const tokens = (Array.isArray(res.body?.tokens) ? res.body.tokens : []) as TokenRow[];
    tokens.sort((a, b) => Number(b.id ?? 0) - Number(a.id ?? 0));
    if (args.flags.json === true) {
      io.stdout.write(JSON.stringify({ host, tokens }) + "\n");
      return EXIT_OK;
    }
    if (tokens.length === 0) {
      io.stdout.write(`no tokens on ${host}\n`);
      return EXIT_OK;
    }
    const ours = saved?.token_id;
    const rows = tokens.map((t) => [
      `${t.id === ours ? "*" : " "}${String(t.id ?? "?")}`,
      typeof t.label === "string" ? t.label : "",
      scopeList(t.scopes).join(","),
      day(t.created_at),
      day(t.expires_at),
      day(t.last_used_at),
      t.revoked_at ? `revoked ${day(t.revoked_at)}` : "active",
    ]);
    const header = ["ID", "LABEL", "SCOPES", "CREATED", "EXPIRES", "LAST USED", "STATUS"];
    const widths = header.map((h, i) =>
      Math.max(h.length, ...rows.map((r) => (r[i] as string).length)),
    );
    const line = (cells: string[]) =>
      cells
        .map((c, i) => c.padEnd(widths[i] as number))
        .join("  ")
        .trimEnd();
    io.stdout.write(
      [io.style.bold(line(header)), ...rows.map((r) => line(r))].join("\n") +
        (ours !== undefined ? `\n${io.style.dim("* the token this CLI uses")}` : "") +
        "\n",
    );
    return EXIT_OK;
  },
};
