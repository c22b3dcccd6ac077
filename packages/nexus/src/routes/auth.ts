// Email + password accounts with HTTP-only session cookies.
import { Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import {
  DEFAULT_SCRYPT,
  dummyHash,
  hashPassword,
  MAX_PASSWORD_CHARS,
  MIN_PASSWORD_CHARS,
  verifyPassword,
} from "../auth/password.js";
import { hashSecret, randomSecret } from "../auth/secrets.js";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Ctx, Env } from "../http/context.js";
import { requireUser, SESSION_COOKIE } from "../http/guards.js";
import { readJson } from "../http/json-body.js";
import { userView } from "../http/views.js";
import { sendVerificationMail } from "./email-verification.js";
import type { User } from "../stores/types.js";

const MAX_EMAIL_CHARS = 254;

export const CredentialsSchema = z.object({
  email: z
    .string()
    .trim()
    .max(MAX_EMAIL_CHARS)
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "not an email address"),
  password: z.string().min(MIN_PASSWORD_CHARS).max(MAX_PASSWORD_CHARS),
});

/** Starts a session for `user` and sets its cookie. */
export async function startSession(c: Ctx, deps: AppDeps, user: User): Promise<void> {
  const secret = randomSecret(32);
  const now = deps.clock.now();
  await deps.stores.sessions.create(
    user.id,
    hashSecret(secret),
    now,
    now + deps.config.sessionTtlMs,
  );
  setCookie(c, SESSION_COOKIE, secret, {
    httpOnly: true,
    sameSite: "Lax",
    secure: c.get("secure"),
    path: "/",
    maxAge: Math.floor(deps.config.sessionTtlMs / 1000),
  });
}

export function authRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  const params = deps.passwordParams ?? DEFAULT_SCRYPT;
  const limiter = deps.rateLimiter;
  const limits = deps.config.rateLimits;
  // Compared against when the email is unknown, so both paths cost one scrypt.
  let dummy: Promise<string> | undefined;

  app.post("/signup", async (c) => {
    const body = await readJson(c, CredentialsSchema);
    const user = await deps.stores.users.create(
      { email: body.email, passwordHash: await hashPassword(body.password, params) },
      deps.clock.now(),
    );
    await startSession(c, deps, user);
    deps.logger.log("info", "user signed up", { user_id: user.id });
    // The account exists either way; a mail that fails can be asked for again (…/resend).
    const sent = await sendVerificationMail(c, deps, user).catch((err: unknown) => {
      deps.logger.log("warn", "verification mail failed", { user_id: user.id, error: String(err) });
      return false;
    });
    return c.json({ user: userView(user), verification_sent: sent }, 201);
  });

  app.post("/signin", async (c) => {
    const body = await readJson(
      c,
      CredentialsSchema.extend({ password: z.string().max(MAX_PASSWORD_CHARS) }),
    );
    const emailKey = `signin:email:${body.email.toLowerCase()}`;
    const ipKey = `signin:ip:${c.get("clientIp")}`;
    if (limiter) {
      const wait = Math.max(
        await limiter.check(emailKey, limits.signinFailures, limits.signinWindowMs),
        await limiter.check(ipKey, limits.signinFailures * 5, limits.signinWindowMs),
      );
      if (wait)
        throw new NexusError("rate_limited", "too many failed sign-ins; try again later", {
          retryAfterS: wait,
        });
    }
    const found = await deps.stores.users.findCredentials(body.email);
    const ok = found
      ? await verifyPassword(body.password, found.passwordHash)
      : await verifyPassword(body.password, await (dummy ??= dummyHash(params))).then(() => false);
    if (!ok || !found) {
      await limiter?.hit(emailKey, limits.signinFailures, limits.signinWindowMs);
      await limiter?.hit(ipKey, limits.signinFailures * 5, limits.signinWindowMs);
      deps.logger.log("info", "sign-in failed", { ip: c.get("clientIp") });
      throw new NexusError("invalid_credentials", "wrong email or password");
    }
    await limiter?.reset(emailKey);
    await startSession(c, deps, found.user);
    deps.logger.log("info", "user signed in", { user_id: found.user.id });
    return c.json({ user: userView(found.user) });
  });

  app.post("/signout", async (c) => {
    const p = await requireUser(c, deps);
    if (p.via === "session") await deps.stores.sessions.revoke(p.sessionHash, deps.clock.now());
    deleteCookie(c, SESSION_COOKIE, {
      path: "/",
      secure: c.get("secure"),
      httpOnly: true,
      sameSite: "Lax",
    });
    return c.body(null, 204);
  });

  return app;
}

export function meRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  app.get("/me", async (c) => {
    const p = await requireUser(c, deps);
    return c.json({ ...userView(p.user), auth: p.via });
  });
  return app;
}
