// Email verification (spec R1 `is_verified`; self-serve developer activation requires it). A
// link with a single-use random token goes to the address; opening it shows a page whose button
// posts the token back, so a mail scanner that fetches links verifies nothing by itself. Only the
// token's hash is stored and the request log records paths without queries, so the token is
// only ever in the mail.
import { Hono } from "hono";
import { z } from "zod";
import { hashSecret, randomSecret } from "../auth/secrets.js";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env } from "../http/context.js";
import { requireUser } from "../http/guards.js";
import { readJson } from "../http/json-body.js";
import { escapeHtml, setPageHeaders } from "../http/page-headers.js";
import type { User } from "../stores/types.js";

export const VERIFY_PAGE_PATH = "/verify-email";
const MAX_TOKEN_CHARS = 200;

/** Creates a link for `user` and mails it; false when this server has no mail sender. */
export async function sendVerificationMail(c: Ctx, deps: AppDeps, user: User): Promise<boolean> {
  if (!deps.mail) return false;
  const token = randomSecret(32);
  const now = deps.clock.now();
  await deps.stores.emailVerifications.create(
    {
      userId: user.id,
      tokenHash: hashSecret(token),
      email: user.email,
      expiresAt: now + deps.config.emailVerificationTtlMs,
    },
    now,
  );
  const link = `${c.get("ownOrigin")}${VERIFY_PAGE_PATH}?token=${encodeURIComponent(token)}`;
  const hours = Math.round(deps.config.emailVerificationTtlMs / 3_600_000);
  await deps.mail.send({
    to: user.email,
    subject: "Verify your email address for Anna Nexus",
    text: `Open this link to verify ${user.email}:\n\n${link}\n\nIt works once, for ${hours} hours. If you did not sign up, ignore this mail.`,
  });
  deps.logger.log("info", "verification mail sent", {
    user_id: user.id,
    via: deps.mail.description,
  });
  return true;
}

export function emailVerificationRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  const { verificationMails, verificationMailWindowMs } = deps.config.rateLimits;

  app.post("/verify-email", async (c) => {
    const { token } = await readJson(
      c,
      z.object({ token: z.string().min(1).max(MAX_TOKEN_CHARS) }),
    );
    const r = await deps.stores.emailVerifications.consume(hashSecret(token), deps.clock.now());
    if (!r.ok) {
      if (r.reason === "unknown")
        throw new NexusError("invalid_verification_link", "this verification link is not valid");
      throw new NexusError(
        "verification_link_expired",
        r.reason === "used"
          ? "this verification link was already used"
          : "this verification link has expired; sign in and ask for a new one",
        { details: { reason: r.reason } },
      );
    }
    deps.logger.log("info", "email verified", { user_id: r.userId });
    return c.json({ is_verified: true, email: r.email });
  });

  app.post("/verify-email/resend", async (c) => {
    const p = await requireUser(c, deps);
    if (p.user.isVerified) return c.json({ is_verified: true, sent: false });
    if (!deps.mail) {
      throw new NexusError(
        "unavailable",
        "this server sends no mail; ask an operator to run 'anna-nexus admin verify-email'",
      );
    }
    const wait =
      (await deps.rateLimiter?.hit(
        `verify-mail:${p.user.id}`,
        verificationMails,
        verificationMailWindowMs,
      )) ?? 0;
    if (wait) {
      throw new NexusError("rate_limited", `too many verification mails; retry in ${wait} s`, {
        retryAfterS: wait,
      });
    }
    await sendVerificationMail(c, deps, p.user);
    return c.json({ is_verified: false, sent: true }, 202);
  });
  return app;
}

const esc = escapeHtml;

export function verifyPageRoutes(): Hono<Env> {
  const app = new Hono<Env>();
  app.get(VERIFY_PAGE_PATH, (c) => {
    const token = (c.req.query("token") ?? "").slice(0, MAX_TOKEN_CHARS);
    const nonce = setPageHeaders(c);
    return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Verify your email — Anna Nexus</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
button{display:block;width:100%;padding:.5rem;font:inherit}#msg{margin-top:1rem}</style></head>
<body><h1>Verify your email address</h1>
<form id="f"><input type="hidden" name="token" value="${esc(token)}">
<button type="submit">Verify my email address</button></form>
<p id="msg" role="status"></p>
<script nonce="${nonce}">
const f=document.getElementById("f"),msg=document.getElementById("msg");
f.addEventListener("submit",async e=>{e.preventDefault();
const r=await fetch("/api/v1/auth/verify-email",{method:"POST",headers:{"content-type":"application/json"},body:JSON.stringify({token:new FormData(f).get("token")}),credentials:"same-origin"});
let m="HTTP "+r.status;try{const b=await r.json();m=r.ok?"Your email address "+b.email+" is verified.":b.detail.message}catch{}
msg.textContent=m});
</script></body></html>`);
  });
  return app;
}
