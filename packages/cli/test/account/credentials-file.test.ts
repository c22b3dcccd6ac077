// The shared credentials file: path rules, atomic private writes, tolerant reads.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  credentialsPath,
  displayPath,
  emptyStore,
  loadCredentials,
  parseStore,
  saveCredentials,
  withAccount,
  withoutAccount,
  type SavedAccount,
} from "../../src/account/credentials-file.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function home(): string {
  const d = mkdtempSync(path.join(tmpdir(), "cli-credentials-"));
  dirs.push(d);
  return d;
}

const account = (host: string, extra: Partial<SavedAccount> = {}): SavedAccount => ({
  host,
  user_id: null,
  pat: `anna_pat_${host.length}`,
  issued_at: 1_700_000_000,
  expires_at: 1_707_776_000,
  scopes: ["aps:dev"],
  ...extra,
});

describe("credentials file location", () => {
  it("uses $XDG_CONFIG_HOME when set and non-empty, else $HOME/.config", () => {
    expect(credentialsPath({ HOME: "/h", XDG_CONFIG_HOME: "/x" })).toBe("/x/anna/credentials.json");
    expect(credentialsPath({ HOME: "/h", XDG_CONFIG_HOME: "" })).toBe(
      "/h/.config/anna/credentials.json",
    );
    expect(displayPath("/h/.config/anna/credentials.json", { HOME: "/h" })).toBe(
      "~/.config/anna/credentials.json",
    );
    expect(displayPath("/x/anna/credentials.json", { HOME: "/h" })).toBe(
      "/x/anna/credentials.json",
    );
  });
});

describe("saveCredentials", () => {
  it("writes 2-space JSON without a trailing newline, 0600 in a 0700 folder, no temp file left", async () => {
    const env = { HOME: home() };
    const file = credentialsPath(env);
    const store = withAccount(emptyStore(), account("https://a.example"));
    await saveCredentials(file, store);
    expect(await readFile(file, "utf8")).toBe(JSON.stringify(store, null, 2));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(readdirSync(path.dirname(file))).toEqual(["credentials.json"]);
  });

  it("makes an existing world-readable file private again and replaces it whole (rename)", async () => {
    const env = { HOME: home() };
    const file = credentialsPath(env);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, "{}");
    await chmod(file, 0o644);
    const before = statSync(file).ino;
    await saveCredentials(file, emptyStore());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A new inode: readers saw either the old file or the new one, never a half-written one.
    expect(statSync(file).ino).not.toBe(before);
  });

  it("keeps fields it does not know, at the top and in accounts", async () => {
    const env = { HOME: home() };
    const file = credentialsPath(env);
    await mkdir(path.dirname(file), { recursive: true });
    const written = {
      version: 1,
      current: "https://a.example",
      future: { x: 1 },
      accounts: { "https://a.example": { ...account("https://a.example"), org: "acme" } },
    };
    await writeFile(file, JSON.stringify(written));
    const loaded = await loadCredentials(env);
    await saveCredentials(file, withAccount(loaded.store, account("https://b.example")));
    const after = JSON.parse(await readFile(file, "utf8")) as typeof written;
    expect(after.future).toEqual({ x: 1 });
    expect(after.accounts["https://a.example"]?.org).toBe("acme");
    expect(after.current).toBe("https://b.example");
  });
});

describe("loadCredentials / parseStore", () => {
  it("reports no file as empty, without a problem", async () => {
    const loaded = await loadCredentials({ HOME: home() });
    expect(loaded).toMatchObject({ exists: false, store: emptyStore() });
    expect(loaded.problem).toBeUndefined();
  });

  it.each([
    ["{ nope", /^not JSON: line 1, column 3/],
    ["[]", /no "accounts" object/],
    ['{"version": 2, "accounts": {}}', /version 2 is not 1/],
  ])("treats %j as empty and says why", (text, problem) => {
    const parsed = parseStore(text);
    expect(parsed.store).toEqual(emptyStore());
    expect(parsed.problem).toMatch(problem);
  });

  it("skips accounts without a PAT and names them", () => {
    const parsed = parseStore(
      JSON.stringify({
        version: 1,
        current: null,
        accounts: { "https://a.example": account("https://a.example"), "https://b.example": {} },
      }),
    );
    expect(Object.keys(parsed.store.accounts)).toEqual(["https://a.example"]);
    expect(parsed.problem).toBe('account https://b.example has no "pat" and is ignored');
  });

  it("records the file mode so whoami and doctor can warn", async () => {
    const env = { HOME: home() };
    const file = credentialsPath(env);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(emptyStore()), { mode: 0o640 });
    expect((await loadCredentials(env)).mode).toBe(0o640);
  });
});

describe("withoutAccount", () => {
  const three = [
    account("https://a.example"),
    account("https://b.example"),
    account("https://c.example"),
  ].reduce(withAccount, emptyStore());

  it("makes the first remaining account current when the current one goes", () => {
    // c is current (logged in last); removing it makes a (first key) current.
    expect(withoutAccount(three, "https://c.example").current).toBe("https://a.example");
  });

  it("keeps current when another account goes, and null when the last goes", () => {
    expect(withoutAccount(three, "https://a.example").current).toBe("https://c.example");
    const one = withAccount(emptyStore(), account("https://a.example"));
    expect(withoutAccount(one, "https://a.example")).toEqual(emptyStore());
  });
});
