// GET /api/v1/executas/{tool_id}/install over real HTTP on SQLite and PostgreSQL: a frozen
// version's distribution (not the live row), the owner sees private ones, others see public and
// app_bundled ones only, `?version=` picks an older one, and every refusal says why.
import { describe, expect, it } from "vitest";
import { DIALECTS, useDialectCleanup } from "./helpers/dialects.js";
import { harness } from "./helpers/harness.js";
import { hubHttp } from "./helpers/hub-http.js";

useDialectCleanup();

const MY = "/api/v1/executas/my";
type Row = Record<string, unknown>;
const detail = (body: unknown) => (body as { detail: { code: string; message: string } }).detail;
const urls = (v: string) => ({
  "linux-x86_64": {
    url: `https://dl.example.com/t-${v}-linux-x86_64.tar.gz`,
    sha256: "a".repeat(64),
    size: 10,
  },
  "darwin-arm64": `https://dl.example.com/t-${v}-darwin-arm64.tar.gz`,
});

describe.each(DIALECTS)("executa install look-up on $name", (d) => {
  it.skipIf(d.skip)(
    "serves a frozen version's distribution to whoever may install it",
    async () => {
      const db = await d.open();
      const hub = await hubHttp(harness(db));
      const { pat } = await hub.developer("acme");
      const other = await hub.developer("bob");
      const draft = (
        await hub.call(pat, "POST", `${MY}/drafts`, {
          body: { name: "Tool", executa_type: "tool", slug_override: "tool" },
        })
      ).body as Row;
      const committed = (
        await hub.call(pat, "POST", `${MY}/drafts/${String(draft.id)}/commit`, {
          body: {
            payload: {
              version: "1.0.0",
              distribution_type: "binary",
              executable_name: "tool",
              binary_urls: urls("1.0.0"),
            },
          },
        })
      ).body as Row;
      const id = String(committed.id);
      const toolId = String(committed.tool_id);
      const install = (who: string, query?: Record<string, string>) =>
        hub.call(who, "GET", `/api/v1/executas/${toolId}/install`, query ? { query } : {});

      // Nothing frozen yet.
      const none = await install(pat);
      expect(none.status).toBe(404);
      expect(detail(none.body).message).toMatch(
        /no frozen version yet; .*anna-app executa publish/,
      );

      expect(
        (await hub.call(pat, "POST", `${MY}/tools/${id}/versions`, { body: { version: "1.0.0" } }))
          .status,
      ).toBe(201);
      const put = await hub.call(pat, "PUT", `${MY}/tools/${id}`, {
        body: {
          name: "Tool",
          version: "1.1.0",
          distribution_type: "binary",
          executable_name: "tool",
          binary_urls: urls("1.1.0"),
        },
      });
      expect(put.status).toBe(200);
      expect(
        (await hub.call(pat, "POST", `${MY}/tools/${id}/versions`, { body: { version: "1.1.0" } }))
          .status,
      ).toBe(201);
      // The live row changes again but is not frozen: installs never see it.
      await hub.call(pat, "PUT", `${MY}/tools/${id}`, {
        body: {
          name: "Tool",
          version: "1.2.0",
          distribution_type: "binary",
          binary_urls: urls("unfrozen"),
        },
      });

      const mine = await install(pat);
      expect(mine.status).toBe(200);
      expect(mine.body).toEqual({
        tool_id: toolId,
        executa_type: "tool",
        name: "Tool",
        slug: "tool",
        visibility: "private",
        version: "1.1.0",
        distribution_type: "binary",
        package_name: null,
        executable_name: "tool",
        binary_urls: urls("1.1.0"),
        versions: ["1.1.0", "1.0.0"],
      });

      // Private: another user cannot tell it exists.
      const hidden = await install(other.pat);
      expect(hidden.status).toBe(404);
      expect(detail(hidden.body).message).toContain("does not exist or is private");

      await hub.call(pat, "POST", `${MY}/tools/${id}/visibility`, {
        body: { visibility: "app_bundled" },
      });
      const shared = await install(other.pat, { version: "1.0.0" });
      expect(shared.status).toBe(200);
      expect(shared.body).toMatchObject({
        version: "1.0.0",
        binary_urls: urls("1.0.0"),
        visibility: "app_bundled",
      });

      const missing = await install(other.pat, { version: "9.9.9" });
      expect(missing.status).toBe(404);
      expect(detail(missing.body).message).toMatch(/has no version 9\.9\.9; it has 1\.[12]\.0, /);
      expect((await install(other.pat, { version: "1 0" })).status).toBe(400);
      expect(
        (await hub.call("not-a-pat", "GET", `/api/v1/executas/${toolId}/install`)).status,
      ).toBe(401);
      const unknown = await hub.call(pat, "GET", `/api/v1/executas/tool-nobody-x-000000/install`);
      expect(unknown.status).toBe(404);
      expect(
        (await hub.call(pat, "GET", `/api/v1/executas/${"x".repeat(300)}/install`)).status,
      ).toBe(400);
    },
  );

  it.skipIf(d.skip)("says a skill has nothing to install", async () => {
    const db = await d.open();
    const hub = await hubHttp(harness(db));
    const { pat } = await hub.developer("acme");
    const draft = (
      await hub.call(pat, "POST", `${MY}/drafts`, {
        body: { name: "Skill", executa_type: "skill", slug_override: "skill" },
      })
    ).body as Row;
    const committed = (
      await hub.call(pat, "POST", `${MY}/drafts/${String(draft.id)}/commit`, {
        body: { payload: { version: "1.0.0" } },
      })
    ).body as Row;
    const r = await hub.call(pat, "GET", `/api/v1/executas/${String(committed.tool_id)}/install`);
    expect(r.status).toBe(400);
    expect(detail(r.body).message).toContain("is a skill; skills load from their SKILL.md");
  });
});
