// The session lifecycle endpoints over real HTTP on SQLite and PostgreSQL (spec L7100–7215):
// refresh re-mints from the session row and slides its idle window, delete is identity-authed
// and works on an expired session, list shows one app's sessions only; each credential reaches
// only its own sessions.
import { describe, expect, it } from "vitest";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { copilotHttp, sseFrames } from "./copilot-harness.js";

useDialectCleanup();

const S = "/api/v1/copilot/app/sessions";
const MIN = 60_000;

async function json(res: Response): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

async function code(res: Response): Promise<string> {
  return `${res.status} ${((await res.json()) as { detail: { code: string } }).detail.code}`;
}

const bearer = (token: unknown) => ({ authorization: `Bearer ${token as string}` });

describe.each(DIALECTS)("copilot session lifecycle on $name", (d) => {
  it.skipIf(d.skip)(
    "a PAT lists, refreshes and deletes its sessions; others cannot reach them",
    async () => {
      const t = await copilotHttp(await d.open());
      const alice = await t.person();
      const bob = await t.person();
      const a = await json(await t.post(S, { pat: alice.pat, app_slug: "notes" }));
      await json(await t.post(S, { pat: alice.pat, app_slug: "other" }));
      const list = await json(await fetch(`${t.url}${S}?app_slug=notes&pat=${alice.pat}`));
      expect(
        (list.sessions as { app_session_uuid: string }[]).map((s) => s.app_session_uuid),
      ).toEqual([a.app_session_uuid]);
      expect(await code(await fetch(`${t.url}${S}?pat=${alice.pat}`))).toBe(
        "400 validation_failed",
      );

      t.h.clock.advance(20 * MIN);
      const r = await json(
        await t.post(`${S}/${a.app_session_uuid as string}/refresh`, { pat: alice.pat }),
      );
      expect(r.app_session_token).not.toBe(a.app_session_token);
      expect(Date.parse(r.expires_at as string)).toBe(t.h.clock.now() + 30 * MIN);
      t.fake.enqueue({ text: "still here" });
      const frames = await sseFrames(
        await t.post("/api/v1/copilot/app/agent", { content: "hi" }, bearer(r.app_session_token)),
      );
      expect(frames.find((f) => f.event === "final")).toMatchObject({ text: "still here" });

      // Bob's PAT reaches none of it.
      expect(
        await code(await t.post(`${S}/${a.app_session_uuid as string}/refresh`, { pat: bob.pat })),
      ).toBe("404 not_found");
      expect(
        await code(
          await fetch(`${t.url}${S}/${a.app_session_uuid as string}?pat=${bob.pat}`, {
            method: "DELETE",
          }),
        ),
      ).toBe("404 not_found");

      const del = await fetch(`${t.url}${S}/${a.app_session_uuid as string}?pat=${alice.pat}`, {
        method: "DELETE",
      });
      expect(await json(del)).toEqual({ revoked: true, app_session_uuid: a.app_session_uuid });
      expect(
        await code(
          await t.post("/api/v1/copilot/app/agent", { content: "x" }, bearer(r.app_session_token)),
        ),
      ).toBe("410 APP_SESSION_REVOKED");
      expect(
        await code(
          await t.post(`${S}/${a.app_session_uuid as string}/refresh`, { pat: alice.pat }),
        ),
      ).toBe("410 APP_SESSION_REVOKED");
    },
  );

  it.skipIf(d.skip)(
    "a window refreshes a session whose token lapsed, and deletes one that expired",
    async () => {
      const t = await copilotHttp(await d.open());
      const alice = await t.person();
      const appId = await t.installApp(alice.userId, { agent: { session: { auto: true } } });
      const otherApp = await t.installApp(alice.userId, { agent: { session: { auto: true } } });
      const win = { "x-anna-app-token": await t.windowToken(alice.userId, appId, "w1") };
      const otherWin = { "x-anna-app-token": await t.windowToken(alice.userId, otherApp, "w2") };
      const s = await json(await t.post(S, {}, win));
      await json(await t.post(S, {}, otherWin));
      const uuid = s.app_session_uuid as string;

      t.h.clock.advance(11 * MIN);
      expect(
        await code(
          await t.post("/api/v1/copilot/app/agent", { content: "x" }, bearer(s.app_session_token)),
        ),
      ).toBe("401 APP_SESSION_TOKEN_EXPIRED");
      // Window tokens live 120 s: the page refreshes its own; here a fresh one.
      const win2 = { "x-anna-app-token": await t.windowToken(alice.userId, appId, "w1") };
      const r = await json(await t.post(`${S}/${uuid}/refresh`, {}, win2));
      t.fake.enqueue({ text: "back" });
      const frames = await sseFrames(
        await t.post("/api/v1/copilot/app/agent", { content: "hi" }, bearer(r.app_session_token)),
      );
      expect(frames.at(-1)).toMatchObject({ event: "complete", aborted: false });
      // Another app's window sees and reaches only its own sessions.
      const otherWin2 = { "x-anna-app-token": await t.windowToken(alice.userId, otherApp, "w2") };
      expect(await code(await t.post(`${S}/${uuid}/refresh`, {}, otherWin2))).toBe("404 not_found");
      const mine = await json(await fetch(`${t.url}${S}`, { headers: win2 }));
      expect(
        (mine.sessions as { app_session_uuid: string }[]).map((x) => x.app_session_uuid),
      ).toEqual([uuid]);

      // Idle past 30 min: expired; refresh says so, delete still releases it (L7128).
      t.h.clock.advance(31 * MIN);
      const win3 = { "x-anna-app-token": await t.windowToken(alice.userId, appId, "w1") };
      expect(await code(await t.post(`${S}/${uuid}/refresh`, {}, win3))).toBe(
        "410 APP_SESSION_EXPIRED",
      );
      expect((await json(await fetch(`${t.url}${S}`, { headers: win3 }))).sessions).toEqual([]);
      const all = await json(await fetch(`${t.url}${S}?include_expired=true`, { headers: win3 }));
      expect(all.sessions).toMatchObject([{ app_session_uuid: uuid, expired: true }]);
      expect(
        await json(await fetch(`${t.url}${S}/${uuid}`, { method: "DELETE", headers: win3 })),
      ).toMatchObject({ revoked: true });
    },
  );
});
