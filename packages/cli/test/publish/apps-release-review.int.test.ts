// Release review through the built CLI against a real Nexus that reviews releases (SQLite,
// 127.0.0.1): the first release of an approved app goes live, the next one is "submitted for
// release review" while the store keeps 1.0.0; `apps status` and `apps versions` show the
// pending and then the rejected state with the admin's reason; releasing the rejected version
// again is refused with that reason, and an approved one goes live.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { DEFAULT_CONFIG } from "@anna-ai/nexus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestNexus, type TestNexus } from "../account/nexus-server.js";
import { jsonLine, tempDir } from "../executa-init/helpers.js";
import { appsCli, developerPat, fail, ok } from "./apps-cli.js";

const SLOW = { timeout: 300_000 };
let nexus: TestNexus;
let env: NodeJS.ProcessEnv;
let adminPat: string;

beforeAll(async () => {
  nexus = await startTestNexus({ appLimits: { ...DEFAULT_CONFIG.appLimits, releaseReview: true } });
  env = {
    ANNA_APP_HOST: nexus.url,
    ANNA_APP_PAT: await developerPat(nexus, "rr-dev@example.com", "rita"),
  };
  adminPat = await developerPat(nexus, "rr-admin@example.com");
  await nexus.makeAdmin("rr-admin@example.com");
}, 60_000);
afterAll(async () => {
  await nexus?.close();
});

const cli = appsCli(() => env);

async function admin(p: string, body: unknown = {}) {
  const res = await fetch(`${nexus.url}/api/v1/super-admin/apps${p}`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminPat}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

async function storeLatest(slug: string): Promise<unknown> {
  const res = await nexus.call("GET", `/api/v1/store/apps/${slug}`);
  return ((await res.json()) as { latest_version?: unknown }).latest_version;
}

describe("anna-app and release review", SLOW, () => {
  it("parks a new version of a live app, shows it, and refuses a rejected one", async () => {
    const slug = "notes-rr";
    const dir = tempDir("apps-rr-");
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, "manifest.json"),
      JSON.stringify({ schema: 1, required_executas: [{ tool_id: "web_search" }] }),
    );
    const appJson = { slug, name: "Notes", version: "1.0.0", category: "productivity" };
    await writeFile(path.join(dir, "app.json"), JSON.stringify(appJson));

    const first = jsonLine(ok(await cli(["apps", "publish", "--json"], dir))) as {
      app_id: number;
    };
    ok(await cli(["apps", "submit-review"], dir));
    await admin(`/${first.app_id}/approve`, { publish: true });
    expect(await storeLatest(slug)).toBe("1.0.0");

    await writeFile(path.join(dir, "app.json"), JSON.stringify({ ...appJson, version: "1.1.0" }));
    await writeFile(
      path.join(dir, "manifest.json"),
      JSON.stringify({
        schema: 1,
        required_executas: [{ tool_id: "web_search" }],
        system_prompt_addendum: "two",
      }),
    );
    ok(await cli(["apps", "publish"], dir));
    const released = ok(await cli(["apps", "release", "1.1.0"], dir));
    expect(released.stdout).toContain("1.1.0 submitted for release review");
    expect(jsonLine(ok(await cli(["apps", "release", "1.1.0", "--json"], dir)))).toMatchObject({
      release_review_state: "pending",
      is_latest: false,
    });
    expect(await storeLatest(slug)).toBe("1.0.0");
    expect(ok(await cli(["apps", "status", slug], dir)).stdout).toMatch(
      /1\.1\.0\s+in release review/,
    );
    expect(jsonLine(ok(await cli(["apps", "status", slug, "--json"], dir)))).toMatchObject({
      latest_version: { version: "1.0.0" },
      release_reviews: [{ version: "1.1.0", release_review_state: "pending" }],
    });
    expect(ok(await cli(["apps", "versions", slug], dir)).stdout).toContain("in release review");

    const vid = (
      jsonLine(ok(await cli(["apps", "release", "1.1.0", "--json"], dir))) as {
        version_id: number;
      }
    ).version_id;
    await admin(`/${first.app_id}/versions/${vid}/reject-release`, { reason: "prompt too long" });
    expect(ok(await cli(["apps", "status", slug], dir)).stdout).toMatch(
      /1\.1\.0\s+release rejected: prompt too long/,
    );
    fail(
      await cli(["apps", "release", "1.1.0"], dir),
      5,
      "rejected in release review (prompt too long)",
    );

    await writeFile(path.join(dir, "app.json"), JSON.stringify({ ...appJson, version: "1.2.0" }));
    ok(await cli(["apps", "publish"], dir));
    const next = jsonLine(ok(await cli(["apps", "release", "1.2.0", "--json"], dir))) as {
      version_id: number;
    };
    await admin(`/${first.app_id}/versions/${next.version_id}/approve-release`);
    expect(await storeLatest(slug)).toBe("1.2.0");
    expect(ok(await cli(["apps", "release", "1.2.0"], dir)).stdout).toContain("already live");
  });
});
