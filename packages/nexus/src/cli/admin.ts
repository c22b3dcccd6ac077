// `anna-nexus admin …`: what an operator needs before the dashboard exists. Works on the database
// directly (same --data / --database-url as start), so it runs with the server up or down.
import {
  DEFAULT_SCRYPT,
  hashPassword,
  MAX_PASSWORD_CHARS,
  MIN_PASSWORD_CHARS,
  type ScryptParams,
} from "../auth/password.js";
import { systemClock } from "../core/clock.js";
import { NexusError } from "../core/errors.js";
import { userView } from "../http/views.js";
import { sqlStores } from "../stores/sql-stores.js";
import type { Stores, User } from "../stores/types.js";
import { type Flags, flagHelp, parseFlags } from "./args.js";
import { DATABASE_FLAGS, openFromFlags } from "./database-flags.js";
import { EXIT, ExitError, usageError } from "./exit.js";
import { type CliIo, readAll } from "./io.js";
import { HANDLE_RE, normaliseHandle, RESERVED_HANDLES } from "../auth/handle-rules.js";
import { openKeyring } from "./keyring-flags.js";
import { LOAD_APP_SUMMARY, runLoadApp } from "./admin-load-app.js";

const EMAIL: Flags = {
  email: { type: "string", value: "<email>", description: "the account's email" },
};
const JSON_FLAG: Flags = { json: { type: "boolean", description: "print JSON" } };
const PASSWORD_STDIN: Flags = {
  "password-stdin": {
    type: "boolean",
    description: "read the password from standard input (required)",
  },
};

interface AdminCommand {
  summary: string;
  flags: Flags;
  examples: string[];
  run(
    stores: Stores,
    flags: Record<string, string | boolean | undefined>,
    io: CliIo,
    opts: AdminOptions & { dataDir: string },
  ): Promise<number>;
}

export interface AdminOptions {
  /** scrypt cost for new hashes (tests lower it). */
  passwordParams?: ScryptParams;
}

async function passwordFromStdin(io: CliIo, command: string): Promise<string> {
  const pw = (await readAll(io.stdin)).replace(/\r?\n$/, "");
  if (pw.length < MIN_PASSWORD_CHARS || pw.length > MAX_PASSWORD_CHARS) {
    throw usageError(
      `the password must be ${MIN_PASSWORD_CHARS}–${MAX_PASSWORD_CHARS} characters`,
      `admin ${command}`,
    );
  }
  return pw;
}

async function userByEmail(
  stores: Stores,
  flags: Record<string, unknown>,
  command: string,
): Promise<User> {
  const email = flags.email as string | undefined;
  if (!email) throw usageError("--email is required", `admin ${command}`);
  const found = await stores.users.findCredentials(email);
  if (!found) throw new ExitError(EXIT.notFound, `no user with email ${email.toLowerCase()}`);
  return found.user;
}

function printUser(io: CliIo, user: User, json: boolean, verb: string): void {
  io.stdout(
    json
      ? JSON.stringify(userView(user)) + "\n"
      : `${verb} user ${user.id} ${user.email} (${describe(user)})\n`,
  );
}

function describe(u: User): string {
  return [
    u.isAdmin ? "admin" : "user",
    u.developerState.replace("_", " "),
    u.handle ? `@${u.handle}` : "",
    u.isVerified ? "" : "email not verified",
  ]
    .filter(Boolean)
    .join(", ");
}

const COMMANDS: Record<string, AdminCommand> = {
  "create-user": {
    summary: "create an account",
    flags: {
      ...EMAIL,
      ...PASSWORD_STDIN,
      developer: { type: "boolean", description: "grant Verified Developer" },
      admin: { type: "boolean", description: "make the account an admin" },
      handle: {
        type: "string",
        value: "<handle>",
        description: "developer handle (2–39 chars: a-z, 0-9, single hyphens)",
      },
      ...JSON_FLAG,
    },
    examples: [
      "printf '%s' \"$PASSWORD\" | anna-nexus admin create-user --email dev@example.com --password-stdin --developer --handle dev",
    ],
    async run(stores, flags, io, opts) {
      const email = flags.email as string | undefined;
      if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
        throw usageError("--email <email> is required", "admin create-user");
      if (!flags["password-stdin"])
        throw usageError(
          "--password-stdin is required (passwords never go in arguments)",
          "admin create-user",
        );
      const handle = flags.handle as string | undefined;
      if (handle !== undefined && (!HANDLE_RE.test(handle) || RESERVED_HANDLES.has(handle))) {
        throw usageError(`invalid or reserved handle '${handle}'`, "admin create-user");
      }
      const password = await passwordFromStdin(io, "create-user");
      try {
        const user = await stores.users.create(
          {
            email,
            passwordHash: await hashPassword(password, opts.passwordParams ?? DEFAULT_SCRYPT),
            isAdmin: flags.admin === true,
            isVerified: true,
            developer: flags.developer === true,
            handle: handle ?? null,
          },
          systemClock.now(),
        );
        printUser(io, user, flags.json === true, "created");
        return EXIT.ok;
      } catch (err) {
        if (
          err instanceof NexusError &&
          (err.code === "email_taken" || err.code === "handle_taken")
        ) {
          throw new ExitError(EXIT.conflict, err.message, { cause: err });
        }
        throw err;
      }
    },
  },
  "list-users": {
    summary: "list every account",
    flags: JSON_FLAG,
    examples: ["anna-nexus admin list-users --json"],
    async run(stores, flags, io) {
      const users = await stores.users.list();
      if (flags.json) io.stdout(JSON.stringify(users.map(userView)) + "\n");
      else if (!users.length) io.stdout("no users\n");
      else for (const u of users) io.stdout(`${u.id}\t${u.email}\t${describe(u)}\n`);
      return EXIT.ok;
    },
  },
  "grant-developer": {
    summary: "grant (or restore) Verified Developer",
    flags: { ...EMAIL, ...JSON_FLAG },
    examples: ["anna-nexus admin grant-developer --email dev@example.com"],
    async run(stores, flags, io) {
      const user = await userByEmail(stores, flags, "grant-developer");
      await stores.users.grantDeveloper(user.id, null, systemClock.now());
      printUser(io, (await stores.users.findById(user.id))!, flags.json === true, "updated");
      return EXIT.ok;
    },
  },
  "revoke-developer": {
    summary: "revoke Verified Developer (blocks developer endpoints and self re-activation)",
    flags: { ...EMAIL, ...JSON_FLAG },
    examples: ["anna-nexus admin revoke-developer --email dev@example.com"],
    async run(stores, flags, io) {
      const user = await userByEmail(stores, flags, "revoke-developer");
      await stores.users.revokeDeveloper(user.id, systemClock.now());
      printUser(io, (await stores.users.findById(user.id))!, flags.json === true, "updated");
      return EXIT.ok;
    },
  },
  "verify-email": {
    summary: "mark the account's email verified (when no verification mail can reach it)",
    flags: { ...EMAIL, ...JSON_FLAG },
    examples: ["anna-nexus admin verify-email --email dev@example.com"],
    async run(stores, flags, io) {
      const user = await userByEmail(stores, flags, "verify-email");
      await stores.users.markVerified(user.id, systemClock.now());
      printUser(io, (await stores.users.findById(user.id))!, flags.json === true, "verified");
      return EXIT.ok;
    },
  },
  "set-handle": {
    summary: "set an account's developer handle (the same rules and 90-day freeze as the API)",
    flags: {
      ...EMAIL,
      handle: { type: "string", value: "<handle>", description: "the new handle" },
      ...JSON_FLAG,
    },
    examples: ["anna-nexus admin set-handle --email dev@example.com --handle studio-acme"],
    async run(stores, flags, io) {
      const user = await userByEmail(stores, flags, "set-handle");
      if (typeof flags.handle !== "string")
        throw usageError("--handle <handle> is required", "admin set-handle");
      try {
        await stores.users.setHandle(user.id, normaliseHandle(flags.handle), systemClock.now());
      } catch (err) {
        if (err instanceof NexusError && err.code === "validation_failed")
          throw usageError(err.message, "admin set-handle");
        if (err instanceof NexusError && err.code === "handle_taken")
          throw new ExitError(EXIT.conflict, err.message, { cause: err });
        throw err;
      }
      printUser(io, (await stores.users.findById(user.id))!, flags.json === true, "updated");
      return EXIT.ok;
    },
  },
  "reset-password": {
    summary: "set a new password and sign the account out everywhere",
    flags: { ...EMAIL, ...PASSWORD_STDIN, ...JSON_FLAG },
    examples: [
      "printf '%s' \"$NEW_PASSWORD\" | anna-nexus admin reset-password --email dev@example.com --password-stdin",
    ],
    async run(stores, flags, io, opts) {
      const user = await userByEmail(stores, flags, "reset-password");
      if (!flags["password-stdin"])
        throw usageError("--password-stdin is required", "admin reset-password");
      const password = await passwordFromStdin(io, "reset-password");
      const now = systemClock.now();
      await stores.users.setPassword(
        user.id,
        await hashPassword(password, opts.passwordParams ?? DEFAULT_SCRYPT),
        now,
      );
      await stores.sessions.revokeAllForUser(user.id, now);
      printUser(io, user, flags.json === true, "reset password of");
      return EXIT.ok;
    },
  },
  "rotate-keys": {
    summary: "start signing tokens with a new key (the old one verifies until its tokens expire)",
    flags: JSON_FLAG,
    examples: [
      "anna-nexus admin rotate-keys",
      "ANNA_TOKEN_KEK=… anna-nexus admin rotate-keys --json",
    ],
    async run(stores, flags, io, opts) {
      const { keyring } = await openKeyring(stores, io, opts.dataDir);
      const r = await keyring.rotate();
      const out = {
        kid: r.kid,
        superseded: r.superseded,
        verifies_until: new Date(r.retireAt).toISOString(),
        retired: r.retired,
      };
      if (flags.json) io.stdout(JSON.stringify(out) + "\n");
      else {
        io.stdout(`signing with new key ${r.kid}\n`);
        for (const kid of r.superseded)
          io.stdout(`key ${kid} stops signing; verifies until ${out.verifies_until}\n`);
        for (const kid of r.retired) io.stdout(`key ${kid} retired\n`);
        io.stdout("running servers pick the new key up within 30 s\n");
      }
      return EXIT.ok;
    },
  },
};

export const ADMIN_HELP = `Usage: anna-nexus admin <command> [options]

Operator commands on the database (the server may be running or not).

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(18)}${c.summary}`)
  .join("\n")}
  ${"load-app".padEnd(18)}${LOAD_APP_SUMMARY}

Every command also takes:
${flagHelp(DATABASE_FLAGS)}

Run 'anna-nexus admin <command> --help' for its options.`;

export async function runAdmin(
  argv: readonly string[],
  io: CliIo,
  opts: AdminOptions = {},
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(ADMIN_HELP + "\n");
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  // It takes a folder argument, which the flag-only commands above do not.
  if (name === "load-app") return runLoadApp(rest, io);
  const cmd = COMMANDS[name];
  if (!cmd) throw usageError(`unknown admin command '${name}'`, "admin");
  const flags = parseFlags(`admin ${name}`, { ...cmd.flags, ...DATABASE_FLAGS }, rest);
  if (flags.help) {
    io.stdout(
      `Usage: anna-nexus admin ${name} [options]\n\n${cmd.summary}\n\nOptions:\n${flagHelp({ ...cmd.flags, ...DATABASE_FLAGS })}\n\nExamples:\n${cmd.examples.map((e) => `  ${e}`).join("\n")}\n`,
    );
    return EXIT.ok;
  }
  const { handle, dataDir } = await openFromFlags(flags, io);
  try {
    return await cmd.run(sqlStores(handle.db), flags, io, { ...opts, dataDir });
  } finally {
    await handle.close();
  }
}
