// `anna-app doctor`'s saved-account row against a real Nexus: skipped with a note when nobody is
// logged in, ok when the server accepts the PAT, ! with the reason otherwise; never the PAT.
import { mkdtempSync, rmSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { credentialsPath, emptyStore, withAccount } from "../../src/account/credentials-file.js";
import { checkSavedAccount } from "../../src/doctor/account-check.js";
import { jsonLine, runCli } from "../executa-init/helpers.js";
import { privateHome } from "./cli-process.js";
import { closedPort, startTestNexus, type TestNexus } from "./nexus-server.js";

/** doctor probes every toolchain; on a busy machine one run takes tens of seconds. */
const LOADED_MACHINE_MS = 60_000;

let nexus: TestNexus;
beforeAll(async () => {
  nexus = await startTestNexus();
});
afterAll(async () => {
  await nexus?.close();
});
const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

/** A home whose credentials file holds `accounts` (current: the first), written with `mode`. */
async function homeWith(
  accounts: { host: string; pat: string; expires_at?: number }[],
  mode = 0o600,
): Promise<NodeJS.ProcessEnv> {
  const home = mkdtempSync(path.join(tmpdir(), "cli-doctor-account-"));
  homes.push(home);
  const env = { HOME: home };
  let store = emptyStore();
  const now = Math.floor(Date.now() / 1000);
  for (const a of [...accounts].reverse()) {
    store = withAccount(store, {
      user_id: null,
      issued_at: now,
      expires_at: now + 3600,
      scopes: [],
      ...a,
    });
  }
  const file = credentialsPath(env);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(store, null, 2));
  await chmod(file, mode);
  return env;
}

let n = 0;
async function freshPat(): Promise<string> {
  return (await nexus.devicePat(await nexus.signup(`doctor${++n}@example.com`))).pat;
}

describe("doctor: saved account", () => {
  it("notes that nobody is logged in, as a ! row", async () => {
    const home = mkdtempSync(path.join(tmpdir(), "cli-doctor-account-"));
    homes.push(home);
    const row = await checkSavedAccount({ HOME: home });
    expect(row).toMatchObject({ id: "account", status: "warn", found: "none", required: false });
    expect(row.detail).toBe(
      "not logged in (no ~/.config/anna/credentials.json): real modes and publishing need anna-app login --host <url>",
    );
  });

  it("is ok when the server accepts the PAT, and names the account", async () => {
    const pat = await freshPat();
    const row = await checkSavedAccount(await homeWith([{ host: nexus.url, pat }]));
    expect(row.status).toBe("ok");
    expect(row.detail).toMatch(
      new RegExp(
        `^${nexus.url}: the token is accepted \\(doctor${n}@example\\.com\\); expires \\d{4}-`,
      ),
    );
    expect(JSON.stringify(row)).not.toContain(pat);
  });

  it("says a revoked PAT was revoked and how to log in again", async () => {
    const pat = await freshPat();
    const tokens = (await (
      await nexus.call("GET", "/api/v1/anna-apps/dev/tokens", pat)
    ).json()) as {
      tokens: { id: number }[];
    };
    await nexus.call("POST", `/api/v1/anna-apps/dev/tokens/${tokens.tokens[0]!.id}/revoke`, pat);
    const row = await checkSavedAccount(await homeWith([{ host: nexus.url, pat }]));
    expect(row).toMatchObject({ status: "warn", found: "rejected" });
    expect(row.detail).toBe(
      `the saved token for ${nexus.url} was revoked; run 'anna-app login --host ${nexus.url}' for a new one`,
    );
  });

  it("warns about a loose file mode, an expired PAT, an unreachable host and an unparseable file", async () => {
    const pat = await freshPat();
    const loose = await checkSavedAccount(await homeWith([{ host: nexus.url, pat }], 0o644));
    expect(loose.status).toBe("warn");
    expect(loose.detail).toMatch(
      /readable by others \(mode 644\): chmod 600 ~\/\.config\/anna\/credentials\.json; .*the token is accepted/,
    );

    const expired = await checkSavedAccount(
      await homeWith([{ host: nexus.url, pat, expires_at: 1_600_000_000 }]),
    );
    expect(expired).toMatchObject({ status: "warn", found: "expired" });
    expect(expired.detail).toContain("expired 2020-09-13");

    const port = await closedPort();
    const gone = await checkSavedAccount(
      await homeWith([{ host: `http://127.0.0.1:${port}`, pat }]),
    );
    expect(gone).toMatchObject({ status: "warn", found: "unreachable" });
    expect(gone.detail).toContain(`cannot reach http://127.0.0.1:${port}`);

    const env = await homeWith([]);
    await writeFile(credentialsPath(env), "{ not json");
    const broken = await checkSavedAccount(env);
    expect(broken).toMatchObject({ status: "warn", found: "unreadable" });
    expect(broken.detail).toMatch(/is ignored: not JSON: line 1, column 3/);
    for (const r of [loose, expired, gone, broken]) expect(JSON.stringify(r)).not.toContain(pat);
  });

  it(
    "shows in anna-app doctor (table and --json) and never fails the doctor",
    async () => {
      const pat = await freshPat();
      const saved = await homeWith([{ host: nexus.url, pat }]);
      const { env } = privateHome({ HOME: saved.HOME });
      const table = await runCli(["doctor"], { env, timeoutMs: LOADED_MACHINE_MS });
      expect(table.stdout).toContain("Saved Nexus account");
      expect(table.stdout).toMatch(
        new RegExp(`✓ account +ok +${nexus.url}: the token is accepted`),
      );
      const json = jsonLine(
        await runCli(["doctor", "--json"], { env, timeoutMs: LOADED_MACHINE_MS }),
      ) as {
        account: { id: string; status: string };
      };
      expect(json.account).toMatchObject({ id: "account", status: "ok" });
      expect(table.stdout + JSON.stringify(json)).not.toContain(pat);
    },
    3 * LOADED_MACHINE_MS,
  );
});
