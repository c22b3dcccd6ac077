// The whole publishing journey on one machine, over real HTTP with the built CLI, on SQLite and
// on PostgreSQL: a developer `apps publish`es an app with a bundled binary executa (its archive
// uploaded through upload-binaries) and a bundled skill, submits it for review, an admin approves
// and publishes it, a second user finds it in the store and installs it (the required executas
// come with it), installs the executa's binary from Nexus with `executa install` and invokes it
// under ExecutaHost, the bundle is served with its CSP, the author releases 1.1.0 and the user
// converges on it at the next install.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { ExecutaHost, platformKey } from "@anna-ai/executa-host";
import { installedLaunchSpec } from "@anna-ai/executa-host/install";
import { afterEach, describe, expect, it } from "vitest";
import { startTestNexus, type TestNexus } from "../../packages/cli/test/account/nexus-server.js";
import { jsonLine, tempDir } from "../../packages/cli/test/executa-init/helpers.js";
import { appsCli, developerPat, ok } from "../../packages/cli/test/publish/apps-cli.js";
import { DIALECTS, useDialectCleanup } from "../../packages/nexus/test/helpers/dialects.js";
import { tarGz } from "../support/archives.js";
import { needs } from "../support/toolchains.js";
import { exampleDir, pluginEnv } from "./examples/example-plugins.js";

useDialectCleanup();
const SLOW = { timeout: 600_000 };
const PLATFORM = platformKey();
const python = needs("python3");
let nexus: TestNexus | undefined;
afterEach(async () => {
  await nexus?.close();
  nexus = undefined;
});

const shEntry = (command: string) =>
  `#!/bin/sh\nHERE=$(cd "$(dirname "$0")/.." && pwd)\nexec ${command}\n`;

/** An app folder: py-weather as a bundled binary executa, a bundled skill, a two-file bundle. */
async function weatherApp(slug: string): Promise<string> {
  const dir = tempDir("journey-app-");
  const src = exampleDir("py-weather");
  const archive = tarGz([
    { name: "bin/weather", data: shEntry('python3 -u "$HERE/weather_plugin.py"'), mode: 0o755 },
    { name: "weather_plugin.py", data: readFileSync(path.join(src, "weather_plugin.py")) },
  ]);
  const files: Record<string, string | Buffer> = {
    "manifest.json": JSON.stringify({
      schema: 2,
      required_executas: [{ tool_id: "bundled:weather" }, { tool_id: "bundled:forecasting" }],
      permissions: ["tools.invoke"],
      ui: {
        bundle: { format: "static-spa", entry: "index.html" },
        views: [{ name: "main", title: "Weather", default: true }],
        host_api: { tools: ["required:bundled:weather"] },
      },
    }),
    "app.json": JSON.stringify({
      slug,
      name: "Weather desk",
      version: "1.0.0",
      category: "productivity",
      tagline: "The weather, at a glance",
      bundled_executas: {
        weather: { path: "executas/weather" },
        forecasting: { path: "executas/forecasting" },
      },
    }),
    "executas/weather/executa.json": JSON.stringify({
      slug: `${slug}-weather`,
      name: "Weather",
      version: "1.0.0",
      description: "Current weather for a city",
      distribution: {
        type: "binary",
        executable_name: "weather",
        binary_artifacts: {
          [PLATFORM]: { path: "dist/weather.tar.gz", entrypoint: "bin/weather" },
        },
      },
    }),
    "executas/weather/dist/weather.tar.gz": archive,
    "executas/forecasting/executa.json": JSON.stringify({
      slug: `${slug}-forecasting`,
      name: "Forecasting",
      version: "1.0.0",
      executa_type: "skill",
      description: "How to read a forecast",
      content_file: "SKILL.md",
    }),
    "executas/forecasting/SKILL.md":
      "---\nname: forecasting\ndescription: How to read a forecast\n---\n\nRead the sky first.\n",
    "bundle/index.html":
      "<!doctype html><title>Weather desk</title><script type=module src=app.js></script>",
    "bundle/app.js": "document.title = 'Weather desk';\n",
  };
  for (const [rel, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), body);
  }
  return dir;
}

describe.each(DIALECTS)("the publishing journey on $name", (d) => {
  it.skipIf(d.skip || python.skip)(
    `publish → review → store → install → run → update${python.reason}`,
    SLOW,
    async () => {
      nexus = await startTestNexus({ database: await d.open() });
      const server = nexus;
      const authorPat = await developerPat(server, "author@example.com", "ada");
      const buyerPat = await developerPat(server, "buyer@example.com");
      const adminPat = await developerPat(server, "admin@example.com");
      await server.makeAdmin("admin@example.com");
      const author = appsCli(() => ({ ANNA_APP_HOST: server.url, ANNA_APP_PAT: authorPat }));
      const buyer = appsCli(() => ({ ANNA_APP_HOST: server.url, ANNA_APP_PAT: buyerPat }));
      const api = async (pat: string, method: string, p: string, body?: unknown) => {
        const res = await fetch(`${server.url}${p}`, {
          method,
          headers: {
            authorization: `Bearer ${pat}`,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await res.text();
        expect(res.status, `${method} ${p}: ${text}`).toBeLessThan(300);
        return text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>);
      };

      // The author publishes 1.0.0 and submits it; nothing is live yet.
      const slug = "weather-desk";
      const dir = await weatherApp(slug);
      const published = jsonLine(ok(await author(["apps", "publish", "--json"], dir))) as {
        app_id: number;
        version: string;
        status: string;
      };
      expect(published).toMatchObject({ version: "1.0.0", status: "DRAFT" });
      const lock = JSON.parse(readFileSync(path.join(dir, ".anna/executas.lock.json"), "utf8"));
      const weatherTool = JSON.stringify(lock).match(/tool-ada-[a-z0-9-]*weather-[a-z0-9]{6}/)?.[0];
      expect(weatherTool, JSON.stringify(lock)).toBeDefined();
      ok(await author(["apps", "submit-review", slug], dir));
      const hidden = (await api(buyerPat, "GET", `/api/v1/store/apps?q=weather`)) as {
        items: unknown[];
      };
      expect(hidden.items).toHaveLength(0);

      // An admin approves and publishes; the review page showed the pre-review findings.
      const review = await api(
        adminPat,
        "GET",
        `/api/v1/super-admin/apps/${published.app_id}/review`,
      );
      expect(review).toHaveProperty("checks.findings");
      await api(adminPat, "POST", `/api/v1/super-admin/apps/${published.app_id}/approve`, {
        publish: true,
      });

      // The buyer finds it, installs it, and gets its required executas.
      const found = (await api(buyerPat, "GET", `/api/v1/store/apps?q=weather`)) as {
        items: { slug: string }[];
      };
      expect(found.items.map((a) => a.slug)).toEqual([slug]);
      await api(buyerPat, "POST", `/api/v1/store/apps/${slug}/install`);
      const mine = JSON.stringify(await api(buyerPat, "GET", "/api/v1/me/executas"));
      expect(mine).toContain(weatherTool!);
      expect(mine).toContain("forecasting");

      // The executa's binary installs from Nexus and answers describe and invoke.
      const home = tempDir("journey-home-");
      ok(await buyer(["executa", "install", weatherTool!, "--home", home, "--json"], home));
      const host = new ExecutaHost({ env: pluginEnv({}, ["WEATHER_API_KEY"]) });
      try {
        const plugin = await host.register(
          await installedLaunchSpec(weatherTool!, { home, env: pluginEnv() }),
          { userId: "buyer" },
        );
        expect((await plugin.describe()).tools.map((t) => t.name)).toContain("get_weather");
        const answer = await host.invoke(
          "buyer",
          weatherTool!,
          "get_weather",
          { city: "Lima" },
          { credentials: { WEATHER_API_KEY: "sk_live_abcd4321" } },
        );
        expect(answer).toMatchObject({ ok: true, data: { city: "Lima" } });
      } finally {
        await host.close();
      }

      // The bundle is served inside a frame with the platform's CSP, and never changes.
      const page = await fetch(`${server.url}/anna-apps/${slug}/1.0.0/index.html`, {
        headers: { "sec-fetch-dest": "iframe" },
      });
      expect(page.status).toBe(200);
      expect(page.headers.get("content-security-policy")).toMatch(/default-src/);
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await page.text()).toContain("Weather desk");
      const js = await fetch(`${server.url}/anna-apps/${slug}/1.0.0/app.js`);
      expect(js.headers.get("etag")).toContain(
        createHash("sha256")
          .update(readFileSync(path.join(dir, "bundle/app.js")))
          .digest("hex"),
      );

      // The author releases 1.1.0; the buyer converges on it at the next install.
      await writeFile(path.join(dir, "bundle/app.js"), "document.title = 'Weather desk 1.1';\n");
      ok(await author(["apps", "publish", "--bump", "minor", "--json"], dir));
      ok(await author(["apps", "release", "1.1.0"], dir));
      const before = JSON.stringify(await api(buyerPat, "GET", "/api/v1/me/apps"));
      expect(before).toContain('"1.0.0"');
      await api(buyerPat, "POST", `/api/v1/store/apps/${slug}/install`);
      const after = JSON.stringify(await api(buyerPat, "GET", "/api/v1/me/apps"));
      expect(after).toContain('"1.1.0"');
      const latest = await fetch(`${server.url}/anna-apps/${slug}/latest/app.js`);
      expect(await latest.text()).toContain("1.1");
    },
  );
});
