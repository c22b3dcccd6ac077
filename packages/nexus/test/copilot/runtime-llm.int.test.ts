// The Host API `llm.*` of a window Nexus serves, on the same gateway as the copilot endpoints:
// `llm.complete` and `llm.embed` over `/runtime/rpc` answered by the fake provider, usage
// accounted under the window's app (`app:<id>`) and the per-user quota applied.
import { describe, expect, it } from "vitest";
import { putAppVersion, installApp } from "../../src/runtime/app-catalog-writes.js";
import { readAppFolder } from "../../src/runtime/load-app-folder.js";
import { DIALECTS, useDialectCleanup } from "../helpers/dialects.js";
import { sessionCookie } from "../helpers/harness.js";
import { FOCUS_FLOW } from "../helpers/runtime.js";
import { copilotHttp, MODEL } from "./copilot-harness.js";

useDialectCleanup();

describe.each(DIALECTS)("runtime llm.* on the gateway, $name", (d) => {
  it.skipIf(d.skip)(
    "llm.complete and llm.embed from a window reach the model and are accounted",
    async () => {
      const t = await copilotHttp(await d.open(), {
        runtime: true,
        config: { llmQuota: { tokensPerUser: 25, imagesPerUser: undefined, windowMs: 3_600_000 } },
      });
      const folder = await readAppFolder(FOCUS_FLOW);
      const hostApi = { ...folder.manifest.ui?.host_api, llm: ["complete", "embed"] };
      const manifest = {
        ...folder.manifest,
        ui: { ...folder.manifest.ui, host_api: hostApi },
      } as typeof folder.manifest;
      const { appId } = await putAppVersion(t.copilot.db, { ...folder, manifest }, t.h.clock.now());
      const signup = await t.post("/api/v1/auth/signup", {
        email: "win@example.com",
        password: "correct horse battery",
      });
      const cookie = sessionCookie(signup);
      const me = (await (await fetch(`${t.url}/api/v1/me`, { headers: { cookie } })).json()) as {
        id: number;
      };
      await installApp(
        t.copilot.db,
        { userId: me.id, appId, version: folder.version },
        t.h.clock.now(),
      );
      const opened = await fetch(`${t.url}/api/v1/anna-apps/runtime/windows?app_id=${appId}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json", origin: t.url },
        body: JSON.stringify({ view: "main" }),
      });
      expect(opened.status, await opened.clone().text()).toBe(201);
      const win = (await opened.json()) as { window: { window_uuid: string }; token: string };
      const rpc = async (ns: string, method: string, args: unknown) => {
        const res = await t.post(
          "/api/v1/anna-apps/runtime/rpc",
          { id: "1", window_uuid: win.window.window_uuid, ns, method, args },
          { "x-anna-app-token": win.token },
        );
        return (await res.json()) as {
          ok: boolean;
          result?: Record<string, unknown>;
          error?: { code: string; message: string };
        };
      };

      t.fake.enqueue({ text: "From the gateway" });
      const reply = await rpc("llm", "complete", {
        messages: [{ role: "user", content: { type: "text", text: "hi" } }],
      });
      expect(reply).toMatchObject({
        ok: true,
        result: { content: { type: "text", text: "From the gateway" }, model: MODEL },
      });
      const embed = await rpc("llm", "embed", { input: "a sentence" });
      expect(embed.ok).toBe(true);
      const usage = await t.copilot.db
        .selectFrom("llm_usage")
        .select(["purpose", "app_id", "user_id"])
        .orderBy("id")
        .execute();
      expect(usage).toEqual([
        { purpose: "sampling", app_id: `app:${appId}`, user_id: String(me.id) },
        { purpose: "embeddings", app_id: `app:${appId}`, user_id: String(me.id) },
      ]);
      // 20 + the embedding's tokens pass the 25-token quota: the next call is refused.
      const refused = await rpc("llm", "complete", {
        messages: [{ role: "user", content: { type: "text", text: "again" } }],
      });
      expect(refused.ok).toBe(false);
      // The dispatcher's code for every family's quota, as `anna-app dev` answers it.
      expect(refused.error?.code).toBe("APP_QUOTA_EXCEEDED");
      expect(refused.error?.message).toMatch(/of 25 tokens in the last 1 h/);
    },
  );
});
