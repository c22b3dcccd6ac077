// `anna-nexus admin load-app <dir>`: puts a local app folder into the server's app catalogue as
// one app version (checked like `anna-app validate` checks its schemas) and, with
// --install-for, installs it for a user, so the server can open that app's windows before the
// registry exists. Re-loading a version replaces it; the app keeps its id.
import { resolve } from "node:path";
import { systemClock } from "../core/clock.js";
import { installApp, putAppVersion } from "../runtime/app-catalog-writes.js";
import { AppFolderError, readAppFolder } from "../runtime/load-app-folder.js";
import { sqlStores } from "../stores/sql-stores.js";
import { type Flags, flagHelp, parseFlags } from "./args.js";
import { DATABASE_FLAGS, openFromFlags } from "./database-flags.js";
import { EXIT, ExitError, usageError } from "./exit.js";
import type { CliIo } from "./io.js";

export const LOAD_APP_SUMMARY = "load a local app folder as an app version (and install it)";

const FLAGS: Flags = {
  version: {
    type: "string",
    value: "<x.y.z>",
    description: "the version to load it as (default: its package.json version)",
  },
  "install-for": {
    type: "string",
    value: "<email>",
    description: "install the loaded version for this user",
  },
  json: { type: "boolean", description: "print JSON" },
};

const HELP = `Usage: anna-nexus admin load-app <dir> [options]

${LOAD_APP_SUMMARY}: manifest.json and app.json are checked with the schemas of
'anna-app validate'; the bundle itself is not copied.

Options:
${flagHelp({ ...FLAGS, ...DATABASE_FLAGS })}

Examples:
  anna-nexus admin load-app examples/apps/focus-flow --install-for dev@example.com
  anna-nexus admin load-app ./my-app --version 1.2.0 --json`;

export async function runLoadApp(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  const dir = first !== undefined && !first.startsWith("-") ? first : undefined;
  const flags = parseFlags("admin load-app", { ...FLAGS, ...DATABASE_FLAGS }, dir ? rest : argv);
  if (flags.help) {
    io.stdout(HELP + "\n");
    return EXIT.ok;
  }
  if (dir === undefined) throw usageError("name the app folder: load-app <dir>", "admin load-app");
  let loaded;
  try {
    loaded = await readAppFolder(resolve(io.cwd, dir), {
      ...(typeof flags.version === "string" ? { version: flags.version } : {}),
    });
  } catch (err) {
    if (err instanceof AppFolderError) throw new ExitError(EXIT.usage, err.message, { cause: err });
    throw err;
  }
  const { handle } = await openFromFlags(flags, io);
  try {
    const email = flags["install-for"] as string | undefined;
    const found = email ? await sqlStores(handle.db).users.findCredentials(email) : undefined;
    if (email && !found)
      throw new ExitError(EXIT.notFound, `no user with email ${email.toLowerCase()}`);
    const now = systemClock.now();
    const { appId, replaced } = await putAppVersion(handle.db, loaded, now);
    if (found)
      await installApp(handle.db, { userId: found.user.id, appId, version: loaded.version }, now);
    const out = {
      app_id: String(appId),
      slug: loaded.slug,
      version: loaded.version,
      replaced,
      installed_for: found ? found.user.email : null,
    };
    if (flags.json) io.stdout(JSON.stringify(out) + "\n");
    else {
      io.stdout(
        `${replaced ? "replaced" : "loaded"} ${loaded.slug} ${loaded.version} as app ${appId}\n`,
      );
      if (found) io.stdout(`installed for ${found.user.email}\n`);
    }
    return EXIT.ok;
  } finally {
    await handle.close();
  }
}
