// Token minting on a real `anna-nexus` process: a PAT from the device flow over HTTP, a minted
// token verified by an independent verifier (jose's remote JWKS against the server),
// `admin rotate-keys` between restarts, and a wrong key-encryption key refused at start.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { runAdmin } from "../src/cli/admin.js";
import type { CliIo } from "../src/cli/io.js";
import { KEK_FILE } from "../src/tokens/key-encryption.js";
import { startNexus } from "./helpers/process.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "anna-nexus-tokens-"));
  dirs.push(d);
  return d;
};

async function listening(data: string, env: NodeJS.ProcessEnv = {}) {
  const p = startNexus(["start", "--port", "0", "--data", data], env);
  const m = await p.waitFor(/"msg":"listening","url":"(http:\/\/[^"]+)"/);
  return { p, url: m[1] as string };
}

const json = (body: unknown, cookie?: string, origin?: string) => ({
  method: "POST",
  headers: {
    "content-type": "application/json",
    ...(cookie ? { cookie } : {}),
    ...(origin ? { origin } : {}),
  },
  body: JSON.stringify(body),
});

/** Sign up, then the device flow as the published CLI runs it, approved by the signed-in user. */
async function devicePat(url: string): Promise<string> {
  const signup = await fetch(
    `${url}/api/v1/auth/signup`,
    json({ email: "dev@example.com", password: "correct horse battery" }),
  );
  const cookie = /anna_session=[^;]+/.exec(signup.headers.get("set-cookie") ?? "")![0];
  const start = (await (
    await fetch(`${url}/api/v1/anna-apps/dev/login/start`, json({}))
  ).json()) as {
    device_code: string;
    user_code: string;
  };
  const approve = await fetch(
    `${url}/api/v1/anna-apps/dev/login/approve`,
    json({ user_code: start.user_code }, cookie, url),
  );
  expect(approve.status).toBe(200);
  const poll = await fetch(
    `${url}/api/v1/anna-apps/dev/login/poll`,
    json({ device_code: start.device_code }),
  );
  return ((await poll.json()) as { pat: string }).pat;
}

function io(env: NodeJS.ProcessEnv = {}): CliIo & { out: string[] } {
  const out: string[] = [];
  return {
    out,
    stdout: (s) => out.push(s),
    stderr: () => {},
    stdin: Readable.from([""]),
    env,
    cwd: tmpdir(),
  };
}

describe("token minting on a real server", () => {
  it("mints over HTTP, verifies against the served JWKS, survives rotate-keys and a restart", async () => {
    const data = tempDir();
    const first = await listening(data);
    expect(first.p.stderr()).toMatch(/"msg":"token signing ready","kid":"[\w-]{43}"/);
    // the KEK file is the owner's only
    expect(statSync(join(data, KEK_FILE)).mode & 0o777).toBe(0o600);
    const pat = await devicePat(first.url);
    const mint = await fetch(
      `${first.url}/api/v1/anna-apps/dev/storage/mint`,
      json({ pat, app_slug: "executa-notes", executa_tool_id: "tool-notes", ttl_seconds: 600 }),
    );
    expect(mint.status).toBe(200);
    const { storage_token } = (await mint.json()) as { storage_token: string };
    const remote = createRemoteJWKSet(new URL(`${first.url}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(storage_token, remote, {
      issuer: "anna-nexus",
      audience: "aps-storage",
    });
    expect(payload).toMatchObject({
      executa_tool_id: "tool-notes",
      allowed_scopes: ["user", "tool"],
    });
    const logs = first.p.stderr();
    expect(logs).not.toContain(pat);
    expect(logs).not.toContain(storage_token);
    first.p.signal("SIGTERM");
    expect(await first.p.exited()).toBe(0);

    // rotate with the server down; the restarted server signs with the new key and still
    // publishes the old one, whose token keeps verifying
    const admin = io();
    expect(await runAdmin(["rotate-keys", "--data", data, "--json"], admin)).toBe(0);
    const rotated = JSON.parse(admin.out.join("")) as { kid: string; superseded: string[] };
    expect(rotated.superseded).toEqual([protectedHeader.kid]);

    const second = await listening(data);
    expect(second.p.stderr()).toContain(`"kid":"${rotated.kid}"`);
    const jwks = (await (await fetch(`${second.url}/.well-known/jwks.json`)).json()) as {
      keys: { kid: string }[];
    };
    expect(jwks.keys.map((k) => k.kid)).toEqual([rotated.kid, protectedHeader.kid]);
    const again = await jwtVerify(
      storage_token,
      createRemoteJWKSet(new URL(`${second.url}/.well-known/jwks.json`)),
      { issuer: "anna-nexus", audience: "aps-storage" },
    );
    expect(again.protectedHeader.kid).toBe(protectedHeader.kid);
    const m2 = await fetch(
      `${second.url}/api/v1/anna-apps/dev/session/mint`,
      json({ pat, kind: "complete", app_slug: "executa-notes" }),
    );
    const { app_session_token } = (await m2.json()) as { app_session_token: string };
    const kid = (
      JSON.parse(Buffer.from(app_session_token.split(".")[0]!, "base64url").toString()) as {
        kid: string;
      }
    ).kid;
    expect(kid).toBe(rotated.kid);
    second.p.signal("SIGTERM");
    expect(await second.p.exited()).toBe(0);
  }, 120_000); // two server starts, a real scrypt sign-up and a rotation: slow on a loaded machine

  it("exits 7 with one clear line when the key-encryption key does not open the stored keys", async () => {
    const data = tempDir();
    const kek = randomBytes(32).toString("base64");
    const ok = await listening(data, { ANNA_TOKEN_KEK: kek });
    ok.p.signal("SIGTERM");
    expect(await ok.p.exited()).toBe(0);
    const wrong = startNexus(["start", "--port", "0", "--data", data], {
      ANNA_TOKEN_KEK: randomBytes(32).toString("base64"),
    });
    expect(await wrong.exited()).toBe(7);
    expect(wrong.stderr()).toMatch(
      /cannot be decrypted with the key-encryption key from ANNA_TOKEN_KEK/,
    );
    expect(wrong.stderr()).not.toContain(kek);
  }, 60_000);
});
