// login, whoami, token list/revoke/scopes, account set-handle and logout through the built CLI
// against a real Nexus on 127.0.0.1 (SQLite in a temp folder), each test with its own HOME.
import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLine, runCli } from "../executa-init/helpers.js";
import { loginWithCli, privateHome, spawnCli, USER_CODE_RE } from "./cli-process.js";
import { closedPort, startTestNexus, type TestNexus } from "./nexus-server.js";

/** Each test runs several CLI processes; on a loaded machine one takes seconds to start. */
const SLOW = { timeout: 180_000 };
/** One CLI run; generous because 8 parallel builds can share this machine's two cores. */
const PROCESS_MS = 60_000;

let nexus: TestNexus;
let other: TestNexus;
beforeAll(async () => {
  [nexus, other] = await Promise.all([startTestNexus(), startTestNexus()]);
});
afterAll(async () => {
  await Promise.all([nexus?.close(), other?.close()]);
});

interface SavedFile {
  version: number;
  current: string | null;
  accounts: Record<string, Record<string, unknown> & { pat: string }>;
}

const credentialsAt = (dir: string) => path.join(dir, "anna", "credentials.json");
const readFile = (file: string) => JSON.parse(readFileSync(file, "utf8")) as SavedFile;

/** Every PAT a test has seen, to prove none reaches any output. */
function expectNoPat(text: string) {
  expect(text).not.toMatch(/anna_pat_/);
}

let emails = 0;
async function person(server: TestNexus = nexus) {
  const email = `dev${++emails}@example.com`;
  return { email, cookie: await server.signup(email) };
}

async function loggedIn(server: TestNexus = nexus, extra: NodeJS.ProcessEnv = {}) {
  const { env, home } = privateHome(extra);
  const who = await person(server);
  const login = await loginWithCli(server.url, env, (code) => server.approve(who.cookie, code));
  expect(login.stderr).toBe("");
  expect(login.code).toBe(0);
  return { env, home, ...who, login };
}

describe("anna-app login", SLOW, () => {
  it("runs the device flow with --no-browser, saves the PAT 0600 in the published shape, never prints it", async () => {
    const { home, email, login } = await loggedIn();
    expect(login.stdout).toContain(`Approve this login at ${nexus.url}/device?user_code=`);
    expect(login.stdout).toMatch(
      new RegExp(
        `✓ logged in to ${nexus.url.replace(/\./g, "\\.")} as ${email}\\. PAT saved to ~/\\.config/anna/credentials\\.json \\(expires in ~90d\\)`,
      ),
    );
    expectNoPat(login.stdout + login.stderr);

    const file = credentialsAt(path.join(home, ".config"));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const text = readFileSync(file, "utf8");
    expect(text.endsWith("}")).toBe(true); // no trailing newline, as the published CLI
    const saved = JSON.parse(text) as SavedFile;
    expect(saved.version).toBe(1);
    expect(saved.current).toBe(nexus.url);
    const account = saved.accounts[nexus.url]!;
    expect(Object.keys(account).slice(0, 6)).toEqual([
      "host",
      "user_id",
      "pat",
      "issued_at",
      "expires_at",
      "scopes",
    ]);
    expect(account).toMatchObject({
      host: nexus.url,
      email,
      scopes: ["aps:dev", "executas:publish"],
    });
    expect(account.pat).toMatch(/^anna_pat_/);
    expect((account.expires_at as number) - (account.issued_at as number)).toBe(90 * 86_400);
    // The saved PAT works against the server.
    const me = await nexus.call("GET", "/api/v1/me", account.pat);
    expect(await me.json()).toMatchObject({ email, auth: "pat" });
    expect(existsSync(`${file}.tmp.${process.pid}`)).toBe(false);
  });

  it("honours XDG_CONFIG_HOME and leaves ~/.config alone", async () => {
    const { env: base, home } = privateHome();
    const xdg = path.join(home, "xdg");
    const { env } = { env: { ...base, XDG_CONFIG_HOME: xdg } };
    const who = await person();
    const login = await loginWithCli(nexus.url, env, (c) => nexus.approve(who.cookie, c), [
      "--json",
    ]);
    expect(login.code).toBe(0);
    const line = JSON.parse(login.stdout) as Record<string, unknown>;
    expect(line).toMatchObject({ host: nexus.url, email: who.email, file: credentialsAt(xdg) });
    expect(login.stderr).toContain("one-time code"); // instructions leave stdout to the JSON line
    expectNoPat(login.stdout + login.stderr);
    expect(readFile(credentialsAt(xdg)).current).toBe(nexus.url);
    expect(existsSync(path.join(home, ".config"))).toBe(false);
    const whoami = await runCli(["whoami", "--json"], { env, timeoutMs: PROCESS_MS });
    expect(jsonLine(whoami)).toMatchObject({ current: nexus.url, file: credentialsAt(xdg) });
  });

  it("opens the link with $BROWSER unless --no-browser", async () => {
    const { env, home } = privateHome();
    const opened = path.join(home, "opened.txt");
    const browser = path.join(home, "browser.sh");
    await writeFile(browser, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`, { mode: 0o755 });
    const who = await person();
    const cli = spawnCli(["login", "--host", nexus.url], { ...env, BROWSER: browser });
    const [, userCode] = await cli.waitFor(USER_CODE_RE);
    await nexus.approve(who.cookie, userCode as string);
    expect(await cli.exited()).toBe(0);
    expect(readFileSync(opened, "utf8")).toBe(`${nexus.url}/device?user_code=${userCode}`);
  });

  it("logging in again to the same host revokes the token it replaces", async () => {
    const { env, cookie } = await loggedIn();
    const first = readPat(env);
    const again = await loginWithCli(nexus.url, env, (c) => nexus.approve(cookie, c));
    expect(again.code).toBe(0);
    expect(again.stderr).toBe("");
    expect(readPat(env)).not.toBe(first);
    expect(await (await nexus.call("GET", "/api/v1/me", first)).json()).toMatchObject({
      detail: { code: "token_revoked" },
    });
    expect((await nexus.call("GET", "/api/v1/me", readPat(env))).status).toBe(200);
  });

  it("exits 130 on Ctrl-C while waiting, with nothing saved", async () => {
    const { env, home } = privateHome();
    const cli = spawnCli(["login", "--host", nexus.url, "--no-browser"], env);
    await cli.waitFor(/Waiting for approval/);
    cli.signal("SIGINT");
    expect(await cli.exited()).toBe(130);
    expect(cli.stderr()).toContain("login cancelled; nothing was saved");
    expect(existsSync(path.join(home, ".config", "anna"))).toBe(false);
  });

  it("says the server is unreachable and that --host is required, in one line each", async () => {
    const { env } = privateHome();
    const missing = await runCli(["login"], { env, timeoutMs: PROCESS_MS });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--host <url> is required/);
    const port = await closedPort();
    const closed = await runCli(["login", "--host", `http://127.0.0.1:${port}`, "--no-browser"], {
      env,
      timeoutMs: PROCESS_MS,
    });
    expect(closed.code).toBe(1);
    expect(closed.stderr.trim().split("\n")).toHaveLength(1);
    expect(closed.stderr).toContain(
      `cannot reach http://127.0.0.1:${port} (POST /api/v1/anna-apps/dev/login/start): connection refused (is the server running?)`,
    );
  });
});

describe("with a saved account", SLOW, () => {
  it("whoami shows it offline; token list marks the CLI's token; token scopes lists the catalogue", async () => {
    const { env, email } = await loggedIn();
    const whoami = await runCli(["whoami"], { env, timeoutMs: PROCESS_MS });
    expect(whoami.code).toBe(0);
    expect(whoami.stdout).toContain(`● ${nexus.url} (current)`);
    expect(whoami.stdout).toContain(`user     ${email}`);
    expect(whoami.stdout).toMatch(/scopes {3}aps:dev, executas:publish/);
    expect(whoami.stdout).toMatch(/expires {2}\d{4}-\d\d-\d\d \(in 90 days\)/);

    const list = await runCli(["token", "list"], { env, timeoutMs: PROCESS_MS });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID +LABEL +SCOPES/m);
    expect(list.stdout).toMatch(/^\*\d+ +device login .*active$/m);
    const listJson = jsonLine(
      await runCli(["token", "list", "--json"], { env, timeoutMs: PROCESS_MS }),
    ) as {
      tokens: { id: number; revoked_at: string | null }[];
    };
    expect(listJson.tokens).toHaveLength(1);

    const scopes = jsonLine(
      await runCli(["token", "scopes", "--json"], { env, timeoutMs: PROCESS_MS }),
    ) as {
      scopes: { name: string }[];
    };
    expect(scopes.scopes.map((s) => s.name)).toContain("aps:dev");
    for (const r of [whoami, list]) expectNoPat(r.stdout + r.stderr);
  });

  it("token revoke makes the next call fail with 'revoked, run anna-app login' (exit 2)", async () => {
    const { env, cookie } = await loggedIn();
    const spare = await nexus.devicePat(cookie);
    // Revoking another token leaves this one working.
    const first = await runCli(["token", "revoke", String(spare.token_id)], {
      env,
      timeoutMs: PROCESS_MS,
    });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`✓ revoked token ${spare.token_id} on ${nexus.url}`);
    expect((await nexus.call("GET", "/api/v1/me", spare.pat)).status).toBe(401);
    const listed = jsonLine(
      await runCli(["token", "list", "--include-revoked", "--json"], {
        env,
        timeoutMs: PROCESS_MS,
      }),
    ) as { tokens: { id: number; revoked_at: string | null }[] };
    expect(listed.tokens.find((t) => t.id === spare.token_id)?.revoked_at).not.toBeNull();

    const own = (listed.tokens.find((t) => t.id !== spare.token_id) as { id: number }).id;
    const self = await runCli(["token", "revoke", String(own)], { env, timeoutMs: PROCESS_MS });
    expect(self.code).toBe(0);
    expect(self.stdout).toContain("that was the token this CLI uses");
    const after = await runCli(["token", "list"], { env, timeoutMs: PROCESS_MS });
    expect(after.code).toBe(2);
    expect(after.stderr.trim()).toBe(
      `error: the saved token for ${nexus.url} was revoked; run 'anna-app login --host ${nexus.url}' for a new one`,
    );
    expectNoPat(first.stdout + first.stderr + self.stdout + after.stderr);
  });

  it("token revoke checks the id locally and reports an unknown one as not found (exit 5)", async () => {
    const { env } = await loggedIn();
    const bad = await runCli(["token", "revoke", "abc"], { env, timeoutMs: PROCESS_MS });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("token id must be a positive integer (got 'abc')");
    const unknown = await runCli(["token", "revoke", "999999"], { env, timeoutMs: PROCESS_MS });
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toContain("revoking token 999999 failed (404 not_found): no such token");
  });

  it("account set-handle sets the handle and names what is wrong with a bad one", async () => {
    const { env, email } = await loggedIn();
    const handle = `dev-${emails}`;
    const ok = await runCli(["account", "set-handle", handle, "--json"], {
      env,
      timeoutMs: PROCESS_MS,
    });
    expect(jsonLine(ok)).toEqual({ host: nexus.url, handle });
    expect(await (await nexus.call("GET", "/api/v1/me", readPat(env))).json()).toMatchObject({
      email,
      developer_handle: handle,
    });
    const bad = await runCli(["account", "set-handle", "no_underscores"], {
      env,
      timeoutMs: PROCESS_MS,
    });
    expect(bad.code).toBe(5);
    expect(bad.stderr).toContain(
      "setting the handle failed (400 validation_failed): a handle is 2–39 characters",
    );
    const reserved = await runCli(["account", "set-handle", "admin", "--host", nexus.url], {
      env,
      timeoutMs: PROCESS_MS,
    });
    expect(reserved.code).toBe(5);
    expect(reserved.stderr).toContain("'admin' is reserved");
  });

  it("--account picks a saved account other than the current one; ANNA_APP_HOST+ANNA_APP_PAT win over both", async () => {
    const { env, email } = await loggedIn(nexus);
    const second = await person(other);
    const again = await loginWithCli(other.url, env, (c) => other.approve(second.cookie, c));
    expect(again.code).toBe(0);
    const whoami = await runCli(["whoami"], { env, timeoutMs: PROCESS_MS });
    expect(whoami.stdout.indexOf(`● ${other.url} (current)`)).toBe(0);
    expect(whoami.stdout).toContain(`○ ${nexus.url}`);

    const set = await runCli(["account", "set-handle", `first-${emails}`, "--account", nexus.url], {
      env,
      timeoutMs: PROCESS_MS,
    });
    expect(set.code).toBe(0);
    const me = (await (await nexus.call("GET", "/api/v1/me", readPat(env, nexus.url))).json()) as {
      email: string;
      developer_handle: string;
    };
    expect(me).toMatchObject({ email, developer_handle: `first-${emails}` });

    const notSaved = await runCli(["token", "list", "--account", "https://elsewhere.example"], {
      env,
      timeoutMs: PROCESS_MS,
    });
    expect(notSaved.code).toBe(2);
    expect(notSaved.stderr).toContain("no saved account for https://elsewhere.example");

    const viaEnv = await runCli(["token", "scopes", "--json", "--account", other.url], {
      env: { ...env, ANNA_APP_HOST: nexus.url, ANNA_APP_PAT: readPat(env, nexus.url) },
      timeoutMs: PROCESS_MS,
    });
    expect(jsonLine(viaEnv)).toMatchObject({ host: nexus.url });
  });

  it("logout of one host revokes its PAT and switches current; --all empties the file", async () => {
    const { env } = await loggedIn(nexus);
    const second = await person(other);
    expect((await loginWithCli(other.url, env, (c) => other.approve(second.cookie, c))).code).toBe(
      0,
    );
    const otherPat = readPat(env, other.url);
    const nexusPat = readPat(env, nexus.url);

    const one = await runCli(["logout", "--host", other.url], { env, timeoutMs: PROCESS_MS });
    expect(one.code).toBe(0);
    expect(one.stdout).toContain(
      `✓ logged out of ${other.url}: its token is revoked on the server`,
    );
    expect(one.stdout).toContain(`current account is now ${nexus.url}`);
    expect(await (await other.call("GET", "/api/v1/me", otherPat)).json()).toMatchObject({
      detail: { code: "token_revoked" },
    });
    const file = readFile(credentialsAt(path.join(env.HOME as string, ".config")));
    expect(file.current).toBe(nexus.url);
    expect(Object.keys(file.accounts)).toEqual([nexus.url]);

    const missing = await runCli(["logout", "--host", other.url], { env, timeoutMs: PROCESS_MS });
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain(`no saved account for ${other.url}`);

    const all = await runCli(["logout", "--all", "--keep-token", "--json"], {
      env,
      timeoutMs: PROCESS_MS,
    });
    expect(jsonLine(all)).toEqual({
      removed: [{ host: nexus.url, revoked: "kept" }],
      current: null,
    });
    expect((await nexus.call("GET", "/api/v1/me", nexusPat)).status).toBe(200);
    const empty = readFile(credentialsAt(path.join(env.HOME as string, ".config")));
    expect(empty).toEqual({ version: 1, current: null, accounts: {} });
    const whoami = await runCli(["whoami"], { env, timeoutMs: PROCESS_MS });
    expect(whoami.code).toBe(2);
    expect(whoami.stderr).toContain("not logged in");
  });
});

describe("a credentials file the published CLI wrote", SLOW, () => {
  it("is read as it is: token list works, whoami warns about a loose mode, logout keeps the unknown token", async () => {
    const { env, home } = privateHome();
    const who = await person();
    const minted = await nexus.devicePat(who.cookie);
    const now = Math.floor(Date.now() / 1000);
    const published = {
      version: 1,
      current: nexus.url,
      accounts: {
        [nexus.url]: {
          host: nexus.url,
          user_id: null,
          pat: minted.pat,
          issued_at: now,
          expires_at: now + minted.expires_in,
          scopes: "aps:dev,executas:publish",
        },
      },
    };
    const dir = path.join(home, ".config", "anna");
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "credentials.json"), JSON.stringify(published, null, 2), {
      mode: 0o644,
    });

    const whoami = await runCli(["whoami"], { env, timeoutMs: PROCESS_MS });
    expect(whoami.code).toBe(0);
    expect(whoami.stderr).toContain(
      "~/.config/anna/credentials.json is readable by others (mode 644); run: chmod 600",
    );
    expect(whoami.stdout).toContain("user     (user not recorded)");
    expect(whoami.stdout).toContain("scopes   aps:dev, executas:publish");

    const list = jsonLine(
      await runCli(["token", "list", "--json"], { env, timeoutMs: PROCESS_MS }),
    ) as {
      tokens: { id: number }[];
    };
    expect(list.tokens.map((t) => t.id)).toEqual([minted.token_id]);

    const logout = await runCli(["logout"], { env, timeoutMs: PROCESS_MS });
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain(
      "its token stays valid until it expires: that login did not record the token's id",
    );
    expect((await nexus.call("GET", "/api/v1/me", minted.pat)).status).toBe(200);
    // Rewritten by us: private again, same shape.
    const file = path.join(dir, "credentials.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFile(file)).toEqual({ version: 1, current: null, accounts: {} });
  });
});

function readPat(env: NodeJS.ProcessEnv, host: string = nexus.url): string {
  const dir = env.XDG_CONFIG_HOME || path.join(env.HOME as string, ".config");
  return readFile(credentialsAt(dir)).accounts[host]!.pat;
}
