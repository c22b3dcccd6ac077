import { describe, expect, it } from "vitest";
import { WINDOW_TOKEN_TTL_S, WindowTokenIssuer } from "../../src/index.js";
import { fakeClock, openDispatcher } from "../helpers.js";

describe("window tokens", () => {
  it("expire after 120 s; auth.refresh before expiry gives a token that works past it", async () => {
    const clock = fakeClock();
    const { dispatcher, token } = await openDispatcher({}, { clock: clock.now });
    clock.advance(100_000);
    const refreshed = await dispatcher.call(token, "auth", "refresh");
    expect(refreshed).toMatchObject({ ok: true, result: { expires_in: WINDOW_TOKEN_TTL_S } });
    const fresh = (refreshed as { result: { token: string } }).result.token;
    clock.advance(30_000);
    expect(await dispatcher.call(token, "window", "heartbeat")).toMatchObject({
      ok: false,
      error: { code: "invalid_token", message: expect.stringContaining("expired") },
    });
    expect(await dispatcher.call(fresh, "window", "heartbeat")).toEqual({ ok: true, result: {} });
  });

  it("cannot be refreshed once expired; the page mints a new one for a live window", async () => {
    const clock = fakeClock();
    const { dispatcher, token, wid } = await openDispatcher({}, { clock: clock.now });
    clock.advance((WINDOW_TOKEN_TTL_S + 10) * 1000);
    expect(await dispatcher.call(token, "auth", "refresh")).toMatchObject({
      ok: false,
      error: { code: "invalid_token" },
    });
    const minted = await dispatcher.mintToken(wid);
    expect(await dispatcher.call(minted.token, "window", "heartbeat")).toEqual({
      ok: true,
      result: {},
    });
    await expect(dispatcher.mintToken(wid, "someone-else")).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("carries the window binding and rejects tampering", async () => {
    const issuer = new WindowTokenIssuer();
    const token = await issuer.mint({ windowUuid: "w", userId: "u", appId: "a", versionId: "v" });
    await expect(issuer.verify(token)).resolves.toMatchObject({
      windowUuid: "w",
      userId: "u",
      appId: "a",
      versionId: "v",
    });
    const [h, p, s] = token.split(".");
    const payload = JSON.parse(Buffer.from(p!, "base64url").toString()) as Record<string, unknown>;
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: "other" })).toString("base64url")}.${s}`;
    await expect(issuer.verify(forged)).rejects.toMatchObject({ code: "invalid_token" });
    expect(() => new WindowTokenIssuer({ secret: new Uint8Array(8) })).toThrow(/32 bytes/);
  });
});
