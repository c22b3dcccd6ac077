// The app journey through the built CLI against a real Nexus (SQLite, blob store in a temp
// folder, 127.0.0.1): push a draft with a bundled executa and a UI bundle, cut, submit for
// review, an admin approves over HTTP, release; and the refusals on the way — stale If-Match,
// a version cut twice, a release before approval, a version that exists with other content, an
// unknown slug, a refused destructive operation.
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestNexus, type TestNexus } from "../account/nexus-server.js";
import { jsonLine, tempDir } from "../executa-init/helpers.js";
import { appsCli, developerPat, fail, ok } from "./apps-cli.js";

// About 35 CLI runs of 1–3 s each; a loaded machine (2 shared cores) can triple that.
const SLOW = { timeout: 600_000 };
let nexus: TestNexus;
let env: NodeJS.ProcessEnv;
let adminPat: string;

beforeAll(async () => {
  nexus = await startTestNexus();
  env = {
    ANNA_APP_HOST: nexus.url,
    ANNA_APP_PAT: await developerPat(nexus, "apps-dev@example.com", "ada"),
  };
  adminPat = await developerPat(nexus, "apps-admin@example.com");
  await nexus.makeAdmin("apps-admin@example.com");
}, 60_000);
afterAll(async () => {
  await nexus?.close();
});

const cli = appsCli(() => env);

async function appFolder(slug: string) {
  const dir = tempDir("apps-nexus-");
  const files: Record<string, unknown> = {
    "manifest.json": {
      schema: 2,
      required_executas: [{ tool_id: "bundled:timer" }],
      permissions: ["tools.invoke", "storage.read", "storage.write"],
      ui: {
        bundle: { format: "static-spa", entry: "index.html" },
        views: [{ name: "main", title: "Main", default: true }],
        host_api: { tools: ["required:bundled:timer"], storage: ["get", "set"] },
      },
    },
    "app.json": {
      slug,
      name: "Timer",
      version: "1.0.0",
      category: "productivity",
      tagline: "Time boxes",
      bundled_executas: { timer: { path: "executas/timer" } },
    },
    "executas/timer/executa.json": {
      type: "python",
      tool_id: "tool-dev-timer",
      slug: `${slug}-timer`,
      name: "Timer tool",
      version: "0.1.0",
      distribution: { type: "uv", package_name: "timer-tool" },
    },
  };
  for (const [rel, v] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), JSON.stringify(v, null, 2));
  }
  await writeFile(path.join(dir, "executas/timer/plugin.py"), "print('timer')\n");
  await mkdir(path.join(dir, "bundle"));
  await writeFile(
    path.join(dir, "bundle/index.html"),
    "<!doctype html><title>Timer</title><script src=app.js></script>",
  );
  await writeFile(path.join(dir, "bundle/app.js"), "console.log(window.__ANNA_TOOL_IDS__);\n");
  return dir;
}

async function approve(appId: number) {
  const res = await fetch(`${nexus.url}/api/v1/super-admin/apps/${appId}/approve`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminPat}`, "content-type": "application/json" },
    body: "{}",
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

describe("anna-app apps against a real Nexus", SLOW, () => {
  it("push → cut → submit-review → approve → release, refusing each step out of order", async () => {
    const slug = "timer-app";
    const dir = await appFolder(slug);
    const dry = ok(await cli(["apps", "push", "--dry-run"], dir));
    expect(dry.stdout).toContain("nothing was changed");
    fail(await cli(["apps", "status", slug], dir), 5, `no app '${slug}' of yours`);

    const pushed = jsonLine(ok(await cli(["apps", "push", "--json"], dir))) as Record<
      string,
      unknown
    > & {
      executas: { tool_id: string }[];
    };
    const toolId = pushed.executas[0]!.tool_id;
    expect(toolId).toMatch(/^tool-ada-timer-app-timer-[a-z0-9]{6}$/);
    expect(pushed).toMatchObject({
      slug,
      unchanged: false,
      bundle_status: "ready",
      status: "DRAFT",
    });
    const revision = pushed.revision as number;
    expect(jsonLine(ok(await cli(["apps", "push", "--json"], dir)))).toMatchObject({
      unchanged: true,
      bundle_uploaded: false,
      revision,
    });
    await writeFile(path.join(dir, "bundle/app.js"), "console.log('two');\n");
    fail(
      await cli(["apps", "push", "--if-match", String(revision + 5)], dir),
      4,
      `If-Match=${revision + 5} is stale`,
    );
    expect(
      jsonLine(ok(await cli(["apps", "push", "--if-match", String(revision), "--json"], dir))),
    ).toMatchObject({ unchanged: false });

    const cut = jsonLine(
      ok(await cli(["apps", "cut", "1.0.0", "--changelog", "First", "--json"], dir)),
    ) as {
      frozen_executas: { tool_id: string }[];
    };
    expect(cut.frozen_executas.map((f) => f.tool_id)).toEqual([toolId]);
    expect(
      JSON.parse(readFileSync(path.join(dir, ".anna/executas.lock.json"), "utf8")),
    ).toMatchObject({
      executas: { timer: { tool_id: toolId, source: "cut" } },
    });
    fail(await cli(["apps", "cut", "1.0.0"], dir), 9, "was already cut");
    fail(
      await cli(["apps", "release", "1.0.0"], dir),
      6,
      `${slug} is DRAFT: submit it for review first`,
    );
    fail(await cli(["apps", "release", "9.9.9"], dir), 5, `${slug} has no version 9.9.9`);

    expect(jsonLine(ok(await cli(["apps", "submit-review", "--json"], dir)))).toMatchObject({
      status: "PENDING_REVIEW",
    });
    fail(await cli(["apps", "release", "1.0.0"], dir), 6, "awaiting admin approval");
    await approve(pushed.app_id as number);
    const released = jsonLine(ok(await cli(["apps", "release", "1.0.0", "--json"], dir)));
    expect(released).toMatchObject({ version: "1.0.0", status: "PUBLISHED", is_latest: true });
    expect(ok(await cli(["apps", "release", "1.0.0"], dir)).stdout).toContain("already live");

    const status = jsonLine(ok(await cli(["apps", "status", slug, "--json"], dir)));
    expect(status).toMatchObject({
      app: { slug, status: "PUBLISHED" },
      latest_version: { version: "1.0.0", is_latest: true },
    });
    expect(ok(await cli(["apps", "versions", slug], dir)).stdout).toContain("1.0.0");
    expect(ok(await cli(["apps", "list"], dir)).stdout).toMatch(
      new RegExp(`${slug}\\s+Timer\\s+PUBLISHED`),
    );
    ok(await cli(["apps", "grants", slug], dir));

    // A one-shot publish of 1.0.0: the cut's content again is the server's hit; other
    // content under 1.0.0 is refused with the bump hint.
    expect(jsonLine(ok(await cli(["apps", "publish", "--json"], dir)))).toMatchObject({
      version: "1.0.0",
      idempotent_hit: true,
    });
    await writeFile(path.join(dir, "bundle/app.js"), "console.log('three');\n");
    fail(
      await cli(["apps", "publish"], dir),
      5,
      "version 1.0.0 of timer-app already exists with other content",
    );
    const next = jsonLine(ok(await cli(["apps", "publish", "--bump", "minor", "--json"], dir)));
    expect(next).toMatchObject({ version: "1.1.0", idempotent_hit: false, first_publish: false });
    expect(jsonLine(ok(await cli(["apps", "publish", "--json"], dir)))).toMatchObject({
      version: "1.1.0",
      idempotent_hit: true,
    });
    expect(jsonLine(ok(await cli(["apps", "release", "1.1.0", "--json"], dir)))).toMatchObject({
      version: "1.1.0",
      is_latest: true,
    });

    // Destructive operations: refused by the environment, then guarded by --confirm.
    fail(
      await cli(["apps", "unpublish", slug, "--yes", "--confirm", slug], dir, {
        ANNA_CLI_NO_DESTRUCTIVE: "1",
      }),
      7,
      "ANNA_CLI_NO_DESTRUCTIVE=1",
    );
    expect(
      jsonLine(
        ok(await cli(["apps", "unpublish", slug, "--yes", "--confirm", slug, "--json"], dir)),
      ),
    ).toMatchObject({ status: "APPROVED" });
    expect(
      jsonLine(ok(await cli(["apps", "archive", slug, "--yes", "--confirm", slug, "--json"], dir))),
    ).toMatchObject({ status: "ARCHIVED" });
    fail(await cli(["apps", "release", "1.1.0"], dir), 6, "unarchive it first");
    expect(
      jsonLine(ok(await cli(["apps", "unarchive", slug, "--yes", "--json"], dir))),
    ).toMatchObject({ status: "APPROVED" });
    fail(await cli(["apps", "rename-slug", "timer-two"], dir), 5, ":");
    ok(await cli(["apps", "delete", slug, "--yes", "--confirm", slug], dir));
    fail(await cli(["apps", "status", slug], dir), 5, `no app '${slug}' of yours`);
  });

  it("renames a never-published app and discards its draft", async () => {
    const dir = await appFolder("timer-draft");
    ok(await cli(["apps", "push", "--json"], dir));
    expect(
      jsonLine(ok(await cli(["apps", "rename-slug", "timer-draft-2", "--json"], dir))),
    ).toMatchObject({ slug: "timer-draft-2" });
    expect(JSON.parse(readFileSync(path.join(dir, "app.json"), "utf8")).slug).toBe("timer-draft-2");
    expect(jsonLine(ok(await cli(["apps", "discard", "--json"], dir)))).toMatchObject({
      slug: "timer-draft-2",
      discarded: true,
    });
    expect(ok(await cli(["apps", "status", "timer-draft-2"], dir)).stdout).toMatch(
      /working draft\s+none/,
    );
    expect(jsonLine(ok(await cli(["apps", "sync-meta", "--json"], dir)))).toMatchObject({
      listing: { name: "Timer", tagline: "Time boxes" },
    });
  });
});
