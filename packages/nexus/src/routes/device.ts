// Device-code login for the CLI (spec L7495–7520, real-world-cli.md §1): start → the user
// approves at /device while signed in → poll answers 202 pending, 410 expired, 200 with a PAT.
import { Hono } from "hono";
import { z } from "zod";
import { hashSecret, normaliseUserCode, randomSecret, randomUserCode } from "../auth/secrets.js";
import { DEFAULT_LOGIN_SCOPES, type Scope } from "../auth/scopes.js";
import { NexusError } from "../core/errors.js";
import type { AppDeps, Env } from "../http/context.js";
import { requireSession, requireUser } from "../http/guards.js";
import { readJson } from "../http/json-body.js";
import { mintPat } from "./tokens.js";

export const DEVICE_PAGE_PATH = "/device";
const MAX_CODE_CHARS = 200;

const PollSchema = z.object({ device_code: z.string().min(1).max(MAX_CODE_CHARS) });
const ApproveSchema = z.object({ user_code: z.string().min(1).max(32) });

export function deviceRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  const { config, clock, stores, rateLimiter: limiter } = deps;
  const limits = config.rateLimits;

  const limit = async (key: string, max: number, windowMs: number) => {
    const wait = (await limiter?.hit(key, max, windowMs)) ?? 0;
    if (wait)
      throw new NexusError("rate_limited", "too many requests; slow down", { retryAfterS: wait });
  };

  app.post("/login/start", async (c) => {
    await limit(
      `device-start:${c.get("clientIp")}`,
      limits.deviceStarts,
      limits.deviceStartWindowMs,
    );
    const now = clock.now();
    const deviceCode = randomSecret(32);
    const userCode = randomUserCode();
    await stores.devices.create(
      {
        deviceCodeHash: hashSecret(deviceCode),
        userCode,
        scopes: DEFAULT_LOGIN_SCOPES,
        expiresAt: now + config.deviceCodeTtlMs,
      },
      now,
    );
    const expiresIn = Math.floor(config.deviceCodeTtlMs / 1000);
    return c.json({
      device_code: deviceCode,
      user_code: userCode,
      // Paths, not URLs: the published CLI prints host + this (real-world-cli.md §1.2).
      verification_uri: DEVICE_PAGE_PATH,
      verification_uri_complete: `${DEVICE_PAGE_PATH}?user_code=${encodeURIComponent(userCode)}`,
      expires_in: expiresIn,
      interval: config.devicePollIntervalS,
    });
  });

  app.post("/login/poll", async (c) => {
    const { device_code } = await readJson(c, PollSchema);
    const hash = hashSecret(device_code);
    await limit(`device-poll:${hash}`, limits.devicePolls, limits.devicePollWindowMs);
    const now = clock.now();
    const d = await stores.devices.findByHash(hash);
    if (!d) throw new NexusError("invalid_device_code", "unknown device code");
    if (d.status === "consumed" || (d.status === "pending" && d.expiresAt <= now)) {
      throw new NexusError("device_code_expired", "device code expired; run login again");
    }
    if (d.status === "pending") return c.json({ status: "authorization_pending" }, 202);
    // approved: hand out the PAT exactly once, in the same transaction that consumes the code.
    const minted = await stores.transaction(async (tx) => {
      if (!(await tx.devices.consume(d.id))) return undefined;
      return mintPat(tx, {
        userId: d.userId as number,
        scopes: d.scopes as Scope[],
        label: `device login ${new Date(now).toISOString().slice(0, 10)}`,
        now,
        ttlMs: config.patTtlMs,
      });
    });
    if (!minted) throw new NexusError("device_code_expired", "device code already used");
    deps.logger.log("info", "device login completed", {
      user_id: d.userId,
      token_id: minted.token.id,
    });
    return c.json({
      pat: minted.pat,
      token_id: minted.token.id,
      token_type: "bearer",
      expires_in: Math.floor(config.patTtlMs / 1000),
      scopes: minted.token.scopes,
    });
  });

  app.post("/login/approve", async (c) => {
    const p = requireSession(await requireUser(c, deps));
    const { user_code } = await readJson(c, ApproveSchema);
    const code = normaliseUserCode(user_code);
    await limit(`device-approve:${p.user.id}`, limits.devicePolls, limits.devicePollWindowMs);
    const now = clock.now();
    const d = await stores.devices.findByUserCode(code);
    if (!d) throw new NexusError("not_found", "no login is waiting for that code");
    if (d.status !== "pending" || d.expiresAt <= now) {
      throw new NexusError("device_code_expired", "that code has expired or was already used");
    }
    if (!(await stores.devices.approve(d.id, p.user.id, now))) {
      throw new NexusError("device_code_expired", "that code has expired or was already used");
    }
    deps.logger.log("info", "device login approved", { user_id: p.user.id });
    return c.json({ status: "approved", user_code: code });
  });

  return app;
}
