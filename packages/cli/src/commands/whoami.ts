// `anna-app whoami [--json]` (R168): the current saved account and any others, read from the
// credentials file only (no network call, as the published CLI). Warns when the file is readable
// by others. Exit 2 when no account is saved. `anna-app doctor` checks the PAT against the server.
import type { CommandSpec, ParsedArgs } from "../cli/args.js";
import { EXIT_OK, EXIT_USAGE, ExitError, usageError } from "../cli/exit-error.js";
import type { CliIo } from "../cli/io.js";
import { accountView, describeExpiry, type AccountView } from "../account/account-view.js";
import { displayPath, isLoose, loadCredentials } from "../account/credentials-file.js";
import type { CommandModule } from "./registry.js";

const NAME = "whoami";

const spec: CommandSpec = {
  name: NAME,
  summary: "Show the current saved account (and any others) without contacting the server",
  description:
    "Reads the credentials file the login saved: host, user, scopes and when the token expires. " +
    "Warns when the file is readable by other users. Exit 2 when no account is saved. To check " +
    "that the server still accepts the token, run anna-app doctor.",
  flags: [
    {
      name: "json",
      type: "boolean",
      description:
        "One JSON line: {current, file, accounts:[{host, current, user_id, email, scopes, expires_at, expired}], warnings}",
    },
  ],
  examples: ["anna-app whoami", "anna-app whoami --json"],
};

export const command: CommandModule = {
  spec,
  run: async (args: ParsedArgs, io: CliIo): Promise<number> => {
    if (args.positionals.length > 0) {
      throw usageError(`unexpected argument '${args.positionals[0]}'`, NAME);
    }
    const loaded = await loadCredentials(io.env);
    const file = displayPath(loaded.path, io.env);
    const now = Date.now();
    const warnings: string[] = [];
    if (loaded.mode !== undefined && isLoose(loaded.mode)) {
      warnings.push(
        `${file} is readable by others (mode ${loaded.mode.toString(8)}); run: chmod 600 ${file}`,
      );
    }
    if (loaded.problem) warnings.push(`${file} was ignored: ${loaded.problem}`);
    const { current, accounts } = loaded.store;
    const views = Object.values(accounts).map((a) => accountView(a, a.host === current, now));
    views.sort((a, b) => Number(b.current) - Number(a.current));
    const currentHost = views.find((v) => v.current)?.host ?? null;

    if (args.flags.json === true) {
      const line = JSON.stringify({
        current: currentHost,
        file: loaded.path,
        accounts: views,
        warnings,
      });
      if (views.length === 0) throw new ExitError(EXIT_USAGE, "not logged in", { output: line });
      io.stdout.write(line + "\n");
      return EXIT_OK;
    }
    for (const w of warnings) io.stderr.write(`${io.errStyle.yellow("!")} ${w}\n`);
    if (views.length === 0) {
      throw new ExitError(
        EXIT_USAGE,
        `not logged in: no account saved in ${file}; run 'anna-app login --host <url>'`,
      );
    }
    io.stdout.write(views.map((v) => render(v, now, io)).join("\n") + "\n");
    return EXIT_OK;
  },
};

function render(v: AccountView, now: number, io: CliIo): string {
  const s = io.style;
  const who = v.email ?? (v.user_id === null ? "(user not recorded)" : `user ${v.user_id}`);
  const expiry = describeExpiry(v.expires_at, now);
  return [
    `${v.current ? s.green("●") : "○"} ${s.bold(v.host)}${v.current ? s.dim(" (current)") : ""}`,
    `    user     ${who}${v.email && v.user_id !== null ? s.dim(` (id ${v.user_id})`) : ""}`,
    `    scopes   ${v.scopes.join(", ") || "(none recorded)"}`,
    `    expires  ${v.expired ? s.red(expiry) : expiry}`,
  ].join("\n");
}
