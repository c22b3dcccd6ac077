// Email verification end to end on both dialects: sign-up mails a link (to a file outbox here),
// the link's page posts the token back, the account becomes verified and may then activate
// Verified Developer. The token is in the mail only, never in a log line.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hashSecret } from "../src/auth/secrets.js";
import { fileOutboxMailSender, type MailMessage } from "../src/mail/mail-sender.js";
import { DIALECTS, STORE_IMPLS, useDialectCleanup } from "./helpers/dialects.js";
import { detail, harness, ORIGIN } from "./helpers/harness.js";

useDialectCleanup();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function outbox() {
  const dir = mkdtempSync(join(tmpdir(), "anna-nexus-outbox-"));
  dirs.push(dir);
  return {
    sender: fileOutboxMailSender(dir),
    read: (): MailMessage[] =>
      readdirSync(dir)
        .filter((f) => f.endsWith(".json"))
        .sort()
        .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as MailMessage),
  };
}

const linkToken = (m: MailMessage) => {
  const url = /(http:\/\/\S+\/verify-email\?token=\S+)/.exec(m.text)?.[1];
  if (!url) throw new Error(`no link in ${m.text}`);
  return { url, token: new URL(url).searchParams.get("token") as string };
};

const same = { origin: ORIGIN };

describe.each(DIALECTS)("email verification on $name", (d) => {
  const setup = async (config = {}) => {
    const box = outbox();
    return { h: harness(await d.open(), config, { mail: box.sender }), box };
  };

  it.skipIf(d.skip)(
    "mails a link at sign-up whose page verifies once, unlocking developer activation",
    async () => {
      const { h, box } = await setup();
      const res = await h.req("POST", "/api/v1/auth/signup", {
        body: { email: "Ada@Example.com", password: "correct horse battery" },
      });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ verification_sent: true });
      const cookie = /anna_session=[^;]+/.exec(res.headers.get("set-cookie") ?? "")![0];
      const [mail, ...more] = box.read();
      expect(more).toEqual([]);
      expect(mail).toMatchObject({ to: "ada@example.com" });
      const { url, token } = linkToken(mail!);
      expect(url.startsWith(`${ORIGIN}/verify-email?token=`)).toBe(true);

      // Opening the link is safe: the page only offers a button.
      const page = await h.req("GET", new URL(url).pathname + new URL(url).search);
      expect(page.status).toBe(200);
      expect(page.headers.get("cache-control")).toBe("no-store");
      expect(page.headers.get("referrer-policy")).toBe("no-referrer");
      expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(await page.text()).toContain("Verify my email address");
      const me0 = (await (await h.req("GET", "/api/v1/me", { cookie })).json()) as object;
      expect(me0).toMatchObject({ is_verified: false });

      const ok = await h.req("POST", "/api/v1/auth/verify-email", {
        body: { token },
        headers: same,
      });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ is_verified: true, email: "ada@example.com" });
      const me = (await (await h.req("GET", "/api/v1/me", { cookie })).json()) as object;
      expect(me).toMatchObject({ is_verified: true });
      const again = await h.req("POST", "/api/v1/auth/verify-email", { body: { token } });
      expect(again.status).toBe(410);
      expect(await detail(again)).toMatchObject({
        code: "verification_link_expired",
        reason: "used",
      });
      const activate = await h.req("POST", "/api/v1/developer/profile/activate", {
        cookie,
        headers: same,
        body: { tos_version: "2026-01", accept_tos: true },
      });
      expect(activate.status).toBe(200);
      expect(await activate.json()).toMatchObject({ developer_state: "verified" });

      const logs = h.logs.join("\n");
      expect(logs).toContain("verification mail sent");
      expect(logs).not.toContain(token);
      expect(logs).not.toContain(hashSecret(token));
    },
  );

  it.skipIf(d.skip)(
    "refuses an unknown token (400), an expired one (410) and bad input (400)",
    async () => {
      const { h, box } = await setup();
      await h.signup("late@example.com");
      const { token } = linkToken(box.read()[0]!);
      const unknown = await h.req("POST", "/api/v1/auth/verify-email", {
        body: { token: "not-a-token" },
      });
      expect(unknown.status).toBe(400);
      expect(await detail(unknown)).toMatchObject({ code: "invalid_verification_link" });
      expect((await h.req("POST", "/api/v1/auth/verify-email", { body: {} })).status).toBe(400);
      h.clock.advance(24 * 3_600_000);
      const late = await h.req("POST", "/api/v1/auth/verify-email", { body: { token } });
      expect(late.status).toBe(410);
      expect(await detail(late)).toMatchObject({ reason: "expired" });
    },
  );

  it.skipIf(d.skip)(
    "resends to a signed-in unverified user (202), at most five an hour (429), none once verified",
    async () => {
      const { h, box } = await setup();
      const cookie = await h.signup("again@example.com");
      const resend = () =>
        h.req("POST", "/api/v1/auth/verify-email/resend", { cookie, headers: same });
      expect((await h.req("POST", "/api/v1/auth/verify-email/resend")).status).toBe(401);
      for (let i = 0; i < 5; i++) expect((await resend()).status).toBe(202);
      const limited = await resend();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      const mails = box.read();
      expect(mails).toHaveLength(6);
      // Every link works on its own; the last one verifies.
      const res = await h.req("POST", "/api/v1/auth/verify-email", {
        body: { token: linkToken(mails[5]!).token },
      });
      expect(res.status).toBe(200);
      h.clock.advance(3_600_000);
      expect(await (await resend()).json()).toEqual({ is_verified: true, sent: false });
      expect(box.read()).toHaveLength(6);
    },
  );

  it.skipIf(d.skip)(
    "sends nothing without a mail sender, and resend says who can help",
    async () => {
      const h = harness(await d.open());
      const res = await h.req("POST", "/api/v1/auth/signup", {
        body: { email: "nomail@example.com", password: "correct horse battery" },
      });
      expect(await res.json()).toMatchObject({ verification_sent: false });
      const cookie = /anna_session=[^;]+/.exec(res.headers.get("set-cookie") ?? "")![0];
      const resend = await h.req("POST", "/api/v1/auth/verify-email/resend", {
        cookie,
        headers: same,
      });
      expect(resend.status).toBe(503);
      expect((await detail(resend)).message).toContain("admin verify-email");
    },
  );
});

const T0 = Date.UTC(2026, 0, 1);

describe.each(STORE_IMPLS)("email verification store on $name", (impl) => {
  it.skipIf(impl.skip)(
    "consumes a link exactly once, even twenty at a time, and only for the address it went to",
    async () => {
      const s = await impl.make();
      const u = await s.users.create({ email: "v@x.io", passwordHash: "h" }, T0);
      await s.emailVerifications.create(
        { userId: u.id, tokenHash: "t1", email: "v@x.io", expiresAt: T0 + 1000 },
        T0,
      );
      const results = await Promise.all(
        Array.from({ length: 20 }, () => s.emailVerifications.consume("t1", T0 + 1)),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok && r.reason === "used")).toHaveLength(19);
      expect((await s.users.findById(u.id))?.isVerified).toBe(true);

      const w = await s.users.create({ email: "w@x.io", passwordHash: "h" }, T0);
      await s.emailVerifications.create(
        { userId: w.id, tokenHash: "t2", email: "old@x.io", expiresAt: T0 + 1000 },
        T0,
      );
      expect(await s.emailVerifications.consume("t2", T0 + 1)).toMatchObject({ ok: false });
      expect((await s.users.findById(w.id))?.isVerified).toBe(false);
      await s.emailVerifications.create(
        { userId: w.id, tokenHash: "t3", email: "w@x.io", expiresAt: T0 + 1000 },
        T0,
      );
      expect(await s.emailVerifications.consume("t3", T0 + 1000)).toEqual({
        ok: false,
        reason: "expired",
      });
      expect(await s.emailVerifications.consume("nope", T0)).toEqual({
        ok: false,
        reason: "unknown",
      });
      expect(await s.emailVerifications.countSince(w.id, T0)).toBe(2);
    },
  );
});
