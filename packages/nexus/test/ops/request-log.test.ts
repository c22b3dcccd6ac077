// Request ids (X-Request-Id in, out, in the log line and the error body) and the one log line
// per request, attacked with every place a secret travels: it must never reach a log.
import { describe, expect, it } from "vitest";
import { jsonLogger, REDACTED, redactText } from "../../src/core/logger.js";
import { REQUEST_ID_MAX_CHARS } from "../../src/ops/request-id.js";
import { mintPat } from "../../src/routes/tokens.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { harness } from "../helpers/harness.js";

useDialectCleanup();
const sqlite = DIALECTS[0]!;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type RequestLine = {
  time: string;
  level: string;
  msg: string;
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
};

function requestLines(logs: string[]): RequestLine[] {
  return logs.map((l) => JSON.parse(l) as RequestLine).filter((l) => l.msg === "request");
}

describe("request ids", () => {
  it("carries a well-formed incoming X-Request-Id to the response, the log line and the error body", async () => {
    const h = harness(await sqlite.open());
    const res = await h.req("GET", "/api/v1/me", { headers: { "x-request-id": "lb-7f3a:node2" } });
    expect(res.status).toBe(401);
    expect(res.headers.get("x-request-id")).toBe("lb-7f3a:node2");
    expect(((await res.json()) as { detail: object }).detail).toMatchObject({
      code: "unauthenticated",
      request_id: "lb-7f3a:node2",
    });
    expect(requestLines(h.logs).at(-1)).toMatchObject({
      level: "info",
      request_id: "lb-7f3a:node2",
      method: "GET",
      path: "/api/v1/me",
      status: 401,
    });
    const line = requestLines(h.logs).at(-1)!;
    expect(typeof line.duration_ms).toBe("number");
    expect(new Date(line.time).toISOString()).toBe(line.time);
  });

  it("replaces an id that is too long or could break a log line or header with a fresh one", async () => {
    const h = harness(await sqlite.open());
    for (const bad of [
      "x".repeat(REQUEST_ID_MAX_CHARS + 1),
      'a"b',
      "a b",
      'id\\u000a{"level":"error"}',
      "",
    ]) {
      const res = await h.req("GET", "/healthz", { headers: { "x-request-id": bad } });
      const id = res.headers.get("x-request-id")!;
      expect(id, bad).toMatch(UUID);
      expect(requestLines(h.logs).at(-1)!.request_id).toBe(id);
    }
    // At the bound it is kept as sent.
    const atMax = "y".repeat(REQUEST_ID_MAX_CHARS);
    const ok = await h.req("GET", "/healthz", { headers: { "x-request-id": atMax } });
    expect(ok.headers.get("x-request-id")).toBe(atMax);
  });

  it("gives every request its own id when none is sent, also on 404s", async () => {
    const h = harness(await sqlite.open());
    const a = await h.req("GET", "/api/v1/nothing-here");
    const b = await h.req("GET", "/api/v1/nothing-here");
    expect(a.status).toBe(404);
    const ids = [a, b].map((r) => r.headers.get("x-request-id"));
    expect(ids[0]).toMatch(UUID);
    expect(ids[0]).not.toBe(ids[1]);
    expect(((await a.json()) as { detail: { request_id: string } }).detail.request_id).toBe(ids[0]);
  });
});

describe("no secret in any log line", () => {
  it("logs none of a PAT, a session cookie, a password or a ?pat= query sent to the server", async () => {
    const h = harness(await sqlite.open());
    const cookie = await h.signup("victim@example.com", "correct horse battery staple");
    const { user } = (await h.stores.users.findCredentials("victim@example.com"))!;
    const { pat } = await mintPat(h.stores, {
      userId: user.id,
      scopes: ["aps:dev"],
      label: "attack",
      now: h.clock.now(),
      ttlMs: 86_400_000,
    });
    const session = cookie.split("=")[1]!;
    await h.req("GET", "/api/v1/me", { headers: { authorization: `Bearer ${pat}` } });
    await h.req("GET", `/api/v1/me?pat=${pat}&token=${session}`, { cookie });
    await h.req("POST", "/api/v1/auth/signin", {
      body: { email: "victim@example.com", password: "correct horse battery staple" },
    });
    // A malformed Authorization header and a session cookie under a request id that tries to
    // smuggle them in.
    await h.req("GET", "/api/v1/me", {
      headers: { authorization: `Basic ${session}`, "x-request-id": pat },
      cookie,
    });
    const all = h.logs.join("");
    expect(requestLines(h.logs).length).toBeGreaterThanOrEqual(5);
    for (const secret of [pat, session, "correct horse battery staple"]) {
      expect(all).not.toContain(secret);
    }
  });

  it("redacts secrets inside free text: tokens, credentials, cookies and secret query parameters", () => {
    const text =
      "fetch failed: Authorization: Bearer eyJhbGciOi.x.y, cookie=anna_session=abc123; " +
      "url https://s3.example/b?X-Amz-Signature=deadbeef&x=1 with anna_pat_SeCrEt and anna_upl_Up1";
    const out = redactText(text);
    for (const secret of ["eyJhbGciOi", "abc123", "deadbeef", "anna_pat_SeCrEt", "anna_upl_Up1"]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain(REDACTED);
    expect(out).toContain("fetch failed");
    expect(out).toContain("&x=1");
  });

  it("writes pretty lines as time, level, message and fields, redacted alike", () => {
    const lines: string[] = [];
    const log = jsonLogger(
      (l) => lines.push(l),
      { now: () => Date.UTC(2026, 0, 2, 3, 4, 5, 6) },
      "info",
      "pretty",
    );
    log.log("warn", "request", {
      request_id: "r1",
      path: "/a b",
      status: 200,
      error: "Bearer abc.def",
      session: "s3cret",
    });
    expect(lines.join("")).toBe(
      `03:04:05.006 WARN  request request_id=r1 path="/a b" status=200 error="Bearer ${REDACTED}" session=${REDACTED}\n`,
    );
  });
});
