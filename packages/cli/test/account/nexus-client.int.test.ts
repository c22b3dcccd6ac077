// The shared Nexus client and the device flow over real HTTP: headers on the wire, the one GET
// retry, error lines and exit codes, and the poll loop's handling of pending/slow_down/expiry.
import { afterEach, describe, expect, it } from "vitest";
import { pollDeviceLogin, startDeviceLogin } from "../../src/account/device-login.js";
import { NexusClient } from "../../src/account/nexus-client.js";
import { NexusRequestError } from "../../src/account/nexus-error.js";
import { scriptedServer, type Answer, type ScriptedServer } from "./scripted-server.js";

const PAT = "anna_pat_secret-value";
const servers: ScriptedServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function serve(answer: Parameters<typeof scriptedServer>[0]) {
  const s = await scriptedServer(answer);
  servers.push(s);
  return s;
}

async function failure(p: Promise<unknown>): Promise<NexusRequestError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NexusRequestError);
  expect((error as Error).message).not.toContain(PAT);
  return error as NexusRequestError;
}

describe("NexusClient", () => {
  it("sends Bearer, user-agent and accept, skips empty query values and undefined body keys", async () => {
    const s = await serve(() => ({
      status: 200,
      body: { ok: true },
      headers: { "x-anna-idempotent": "hit" },
    }));
    const client = new NexusClient({ host: s.url, pat: PAT });
    const res = await client.post("/api/v1/x", {
      query: { a: 1, b: undefined, c: null, d: true },
      body: { keep: "v", drop: undefined },
    });
    expect(res.body).toEqual({ ok: true });
    expect(res.idempotentHit).toBe(true);
    const [req] = s.seen;
    expect(req?.url).toBe("/api/v1/x?a=1&d=true");
    expect(req?.headers).toMatchObject({
      authorization: `Bearer ${PAT}`,
      "user-agent": "anna-app-cli",
      accept: "application/json",
      "content-type": "application/json",
    });
    expect(req?.body).toBe('{"keep":"v"}');
  });

  it("retries a GET that got ≥ 500 exactly once, and never a POST", async () => {
    const s = await serve((_r, i) =>
      i === 0 || i >= 2 ? { status: 502, body: "bad gateway" } : { status: 200, body: [] },
    );
    const client = new NexusClient({ host: s.url, pat: PAT });
    expect((await client.get("/a")).body).toEqual([]);
    const post = await failure(client.post("/b"));
    expect(s.seen.map((r) => r.method)).toEqual(["GET", "GET", "POST"]);
    expect(post.exitCode).toBe(6);
    expect(post.message).toBe("POST /b failed on the server (502): bad gateway");
  });

  it.each<[Answer, number, string]>([
    [
      {
        status: 401,
        body: { detail: { code: "token_revoked", message: "this token was revoked" } },
      },
      2,
      "the saved token for HOST was revoked; run 'anna-app login --host HOST' for a new one",
    ],
    [
      { status: 401, body: { detail: { code: "token_expired", message: "x" } } },
      2,
      "the saved token for HOST has expired; run 'anna-app login --host HOST' for a new one",
    ],
    [
      { status: 401, body: "" },
      2,
      "HOST rejected the saved token (401: (empty body)); run 'anna-app login --host HOST' for a new one",
    ],
    [
      {
        status: 403,
        body: {
          detail: {
            detail: "missing_scope",
            code: "missing_scope",
            message: "m",
            needed: ["a:b"],
            missing: ["a:b"],
            have: ["aps:dev"],
          },
        },
      },
      3,
      "listing things needs PAT scope a:b, the saved token has [aps:dev]; tokens cannot be upgraded: run 'anna-app login --host HOST' for a new one",
    ],
    [
      { status: 403, body: { detail: "requires a Verified Developer" } },
      3,
      "listing things refused (403): requires a Verified Developer; activate developer access at HOST/developer",
    ],
    [
      { status: 404, body: { detail: { code: "not_found", message: "no such app" } } },
      5,
      "listing things failed (404 not_found): no such app",
    ],
    [
      { status: 409, body: { detail: { weird: true } } },
      5,
      'listing things failed (409): {"weird":true}',
    ],
    [
      // Server text reaches a terminal: no escape sequences, no second line.
      { status: 400, body: "two\nlines \u001b[31mred\u001b[0m" },
      5,
      "listing things failed (400): two lines [31mred [0m",
    ],
  ])("maps %j to exit %i and one line", async (answer, exitCode, message) => {
    const s = await serve(() => answer);
    const client = new NexusClient({ host: s.url, pat: PAT });
    const error = await failure(client.get("/x", { what: "listing things", allowStatuses: [] }));
    expect(error.exitCode).toBe(exitCode);
    expect(error.message).toBe(message.replaceAll("HOST", s.url));
  });

  it("names a server that does not answer in time (exit 6)", async () => {
    const s = await serve(
      () => new Promise<Answer>((resolve) => setTimeout(() => resolve({ status: 200 }), 2_000)),
    );
    const client = new NexusClient({ host: s.url, pat: PAT });
    const error = await failure(client.get("/slow", { timeoutMs: 200 }));
    expect(error.exitCode).toBe(6);
    expect(error.message).toBe(`cannot reach ${s.url} (GET /slow): no answer within 0.2 s`);
  });
});

describe("device login", () => {
  const start = (extra: Record<string, unknown> = {}): Answer => ({
    status: 200,
    body: {
      device_code: "dc",
      user_code: "ABCD-EFGH",
      verification_uri_complete: "/device?user_code=ABCD-EFGH",
      expires_in: 60,
      interval: 1,
      ...extra,
    },
  });

  it("starts with a JSON content type and no body or auth, and builds the link from the host", async () => {
    const s = await serve(() => start());
    const begun = await startDeviceLogin(new NexusClient({ host: s.url }));
    expect(begun).toMatchObject({
      deviceCode: "dc",
      userCode: "ABCD-EFGH",
      intervalS: 1,
      expiresInS: 60,
    });
    expect(begun.verificationUrl).toBe(`${s.url}/device?user_code=ABCD-EFGH`);
    expect(s.seen[0]?.headers["content-type"]).toBe("application/json");
    expect(s.seen[0]?.headers.authorization).toBeUndefined();
    expect(s.seen[0]?.body).toBe("");
  });

  it("keeps polling through 202, 400 authorization_pending and slow_down (+5 s), then returns the grant", async () => {
    const answers: Answer[] = [
      { status: 202, body: { status: "authorization_pending" } },
      { status: 400, body: { error: "authorization_pending" } },
      { status: 429, body: { detail: { code: "rate_limited", message: "slow down" } } },
      { status: 200, body: { pat: PAT, expires_in: 3600, scopes: "aps:dev", token_id: 7 } },
    ];
    const s = await serve((_r, i) => answers[i] ?? { status: 500 });
    const client = new NexusClient({ host: s.url });
    const intervals: number[] = [];
    let fakeNow = 0;
    const grant = await pollDeviceLogin(
      client,
      { deviceCode: "dc", userCode: "U", verificationUrl: "", expiresInS: 60, intervalS: 0.01 },
      { onWait: (_left, interval) => intervals.push(interval), now: () => fakeNow++ },
    );
    expect(grant).toEqual({ pat: PAT, expiresInS: 3600, scopes: "aps:dev", tokenId: 7 });
    expect(intervals).toEqual([0.01, 0.01, 0.01, 5.01]);
    expect(s.seen.every((r) => r.body === '{"device_code":"dc"}' && !r.headers.authorization)).toBe(
      true,
    );
  }, 15_000);

  it("says the code expired on 410 (exit 1) and names an unexpected answer", async () => {
    const gone = await serve(() => ({
      status: 410,
      body: { detail: { code: "device_code_expired", message: "x" } },
    }));
    const expired = await failure(
      pollDeviceLogin(new NexusClient({ host: gone.url }), {
        deviceCode: "dc",
        userCode: "U",
        verificationUrl: "",
        expiresInS: 60,
        intervalS: 0.01,
      }),
    );
    expect(expired.exitCode).toBe(1);
    expect(expired.message).toBe("login: the device code expired; run anna-app login again");
    const odd = await serve(() => ({
      status: 400,
      body: { detail: { code: "invalid_device_code", message: "unknown device code" } },
    }));
    const unknown = await failure(
      pollDeviceLogin(new NexusClient({ host: odd.url }), {
        deviceCode: "dc",
        userCode: "U",
        verificationUrl: "",
        expiresInS: 60,
        intervalS: 0.01,
      }),
    );
    expect(unknown.message).toBe(
      `login: ${odd.url} answered the poll with 400 invalid_device_code: unknown device code`,
    );
  });

  it("gives up at the deadline", async () => {
    const s = await serve(() => ({ status: 202 }));
    let t = 0;
    const error = await failure(
      pollDeviceLogin(
        new NexusClient({ host: s.url }),
        { deviceCode: "dc", userCode: "U", verificationUrl: "", expiresInS: 1, intervalS: 0.01 },
        { now: () => (t += 400) },
      ),
    );
    expect(error.message).toBe("login: timed out waiting for approval; run anna-app login again");
  });
});
