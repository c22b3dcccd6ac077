// `anna-app executa publish|list|status|versions|unpublish|yank|delete|cache-clear|register` and
// top-level `publish`, through the built CLI against a real Nexus on 127.0.0.1 (SQLite in a temp
// folder). The PAT comes in by ANNA_APP_HOST + ANNA_APP_PAT, as in CI.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLine, runCli, tempDir, type RunResult } from "../executa-init/helpers.js";
import { privateHome } from "../account/cli-process.js";
import { startTestNexus, type TestNexus } from "../account/nexus-server.js";

const SLOW = { timeout: 240_000 };
const PROCESS_MS = 60_000;

let nexus: TestNexus;
beforeAll(async () => {
  nexus = await startTestNexus();
});
afterAll(async () => {
  await nexus?.close();
});

let people = 0;
/** A person with a PAT (and a handle unless `handle` is null) and a private HOME. */
async function developer(handle: string | null = `dev${people + 1}`) {
  const cookie = await nexus.signup(`publish${++people}@example.com`);
  const { pat } = await nexus.devicePat(cookie);
  if (handle !== null) {
    const res = await fetch(`${nexus.url}/api/v1/developer/profile/handle`, {
      method: "PUT",
      headers: { authorization: `Bearer ${pat}`, "content-type": "application/json" },
      body: JSON.stringify({ handle }),
    });
    expect(res.status).toBe(200);
  }
  const { env, home } = privateHome({ ANNA_APP_HOST: nexus.url, ANNA_APP_PAT: pat });
  env.ANNA_APP_HOST = nexus.url;
  env.ANNA_APP_PAT = pat;
  const cli = (args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) =>
    runCli(args, { cwd, env: { ...env, ...extra }, timeoutMs: PROCESS_MS });
  return { pat, env, home, handle, cli };
}

async function toolFolder(json: Record<string, unknown> = {}) {
  const dir = tempDir("executa-publish-");
  await writeFile(
    path.join(dir, "executa.json"),
    JSON.stringify(
      {
        type: "python",
        slug: "weather",
        name: "Weather",
        version: "1.0.0",
        description: "Forecasts",
        distribution: { type: "uv", package_name: "weather-tool" },
        ...json,
      },
      null,
      2,
    ),
  );
  return dir;
}

const readJson = (file: string) =>
  JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
const ok = (r: RunResult) => {
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return r;
};

describe("anna-app executa publish", SLOW, () => {
  it("dry-runs without a change, mints once, freezes, and answers a retry as unchanged", async () => {
    const dev = await developer("acme");
    const dir = await toolFolder();

    const dry = jsonLine(ok(await dev.cli(["executa", "publish", "--dry-run", "--json"], dir))) as {
      dry_run: boolean;
      plan: { method: string; path: string; body?: Record<string, unknown> }[];
    };
    expect(dry.dry_run).toBe(true);
    expect(dry.plan.map((q) => `${q.method} ${q.path.replace(/\?.*/, "")}`)).toEqual([
      "POST /api/v1/executas/my/drafts",
      "POST /api/v1/executas/my/drafts/{draft_id}/commit",
      "PUT /api/v1/executas/my/tools/{executa_id}",
      "POST /api/v1/executas/my/tools/{executa_id}/visibility",
      "POST /api/v1/executas/my/tools/{executa_id}/versions",
    ]);
    expect(dry.plan[0]!.body).toMatchObject({ executa_type: "tool", slug_override: "weather" });
    expect(existsSync(path.join(dir, ".anna"))).toBe(false);
    expect(jsonLine(ok(await dev.cli(["executa", "list", "--json"], dir)))).toMatchObject({
      executas: [],
    });

    const first = jsonLine(ok(await dev.cli(["executa", "publish", "--json"], dir))) as Record<
      string,
      unknown
    >;
    expect(first).toMatchObject({
      host: nexus.url,
      slug: "weather",
      version: "1.0.0",
      first_publish: true,
      published_public: false,
      visibility: "app_bundled",
    });
    expect(first.tool_id).toMatch(/^tool-acme-weather-[a-z0-9]{6}$/);
    expect(typeof first.latest_version_id).toBe("number");
    expect(first.content_hash).toMatch(/^[0-9a-f]{64}$/);
    const identity = readJson(path.join(dir, ".anna", "executa.json"));
    expect(identity).toMatchObject({
      $schema: "anna-executa-identity/v1",
      host: nexus.url,
      executa_id: first.executa_id,
      tool_id: first.tool_id,
      slug: "weather",
      executa_type: "tool",
    });

    const again = jsonLine(ok(await dev.cli(["executa", "publish", "--json"], dir))) as Record<
      string,
      unknown
    >;
    expect(again).toMatchObject({
      tool_id: first.tool_id,
      idempotent_hit: true,
      first_publish: false,
    });
    const human = ok(await dev.cli(["executa", "publish"], dir));
    expect(human.stdout).toContain("weather 1.0.0 unchanged");

    // Other content under the same version: refused, naming the version and the next command.
    await writeFile(
      path.join(dir, "executa.json"),
      JSON.stringify({ ...readJson(path.join(dir, "executa.json")), description: "Better" }),
    );
    const clash = await dev.cli(["executa", "publish"], dir);
    expect(clash.code).toBe(5);
    expect(clash.stderr).toContain("version 1.0.0");
    expect(clash.stderr).toContain("--bump patch");

    const bumped = jsonLine(
      ok(await dev.cli(["executa", "publish", "--bump", "patch", "--json"], dir)),
    ) as Record<string, unknown>;
    expect(bumped).toMatchObject({ version: "1.0.1", idempotent_hit: false });
    expect(readJson(path.join(dir, "executa.json")).version).toBe("1.0.1");
    expect(readFileSync(path.join(dir, "executa.json"), "utf8").endsWith("}\n")).toBe(true);

    // A lost cache: the idempotency key finds the same executa, nothing is minted.
    ok(await dev.cli(["executa", "cache-clear"], dir));
    expect(existsSync(path.join(dir, ".anna", "executa.json"))).toBe(false);
    const refound = jsonLine(ok(await dev.cli(["executa", "publish", "--json"], dir))) as Record<
      string,
      unknown
    >;
    expect(refound).toMatchObject({
      tool_id: first.tool_id,
      first_publish: false,
      idempotent_hit: true,
    });
    expect(existsSync(path.join(dir, ".anna", "executa.json"))).toBe(true);
  });

  it("list, status, versions, yank, unpublish, publish --publish and delete, with the destructive guards", async () => {
    const dev = await developer("ops");
    const dir = await toolFolder();
    ok(await dev.cli(["executa", "publish"], dir));
    await writeFile(
      path.join(dir, "executa.json"),
      JSON.stringify({ ...readJson(path.join(dir, "executa.json")), description: "v2" }),
    );
    ok(await dev.cli(["executa", "publish", "--bump", "minor"], dir));

    const list = jsonLine(ok(await dev.cli(["executa", "list", "--json"], dir))) as {
      executas: { tool_id: string; visibility: string }[];
    };
    expect(list.executas).toHaveLength(1);
    const toolId = list.executas[0]!.tool_id;
    expect(ok(await dev.cli(["executa", "list"], dir)).stdout).toContain(toolId);
    const status = jsonLine(ok(await dev.cli(["executa", "status", "weather", "--json"], dir))) as {
      executa: Record<string, unknown>;
      versions: { version: string }[];
    };
    expect(status.executa).toMatchObject({ tool_id: toolId, visibility: "app_bundled" });
    expect(ok(await dev.cli(["executa", "status", toolId], dir)).stdout).toContain(
      "1.1.0 (2 versions)",
    );
    const versions = jsonLine(
      ok(await dev.cli(["executa", "versions", "weather", "--json"], dir)),
    ) as {
      versions: { version: string }[];
    };
    expect(versions.versions.map((v) => v.version)).toEqual(["1.1.0", "1.0.0"]);

    const unguarded = await dev.cli(["executa", "yank", "weather@1.1.0"], dir);
    expect(unguarded.code).toBe(2);
    expect(unguarded.stderr).toContain("--yes --confirm weather");
    const wrong = await dev.cli(
      ["executa", "yank", "weather@1.1.0", "--yes", "--confirm", "other"],
      dir,
    );
    expect(wrong.code).toBe(2);
    const ci = await dev.cli(
      ["executa", "yank", "weather@1.1.0", "--yes", "--confirm", "weather"],
      dir,
      {
        ANNA_CLI_NO_DESTRUCTIVE: "1",
      },
    );
    expect(ci.code).toBe(7);
    const missing = await dev.cli(
      ["executa", "yank", "weather@9.9.9", "--yes", "--confirm", "weather"],
      dir,
    );
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain("has: 1.1.0, 1.0.0");
    ok(await dev.cli(["executa", "yank", "weather@1.1.0", "--yes", "--confirm", toolId], dir));
    const after = jsonLine(
      ok(await dev.cli(["executa", "versions", "weather", "--json"], dir)),
    ) as {
      versions: { version: string }[];
    };
    expect(after.versions.map((v) => v.version)).toEqual(["1.0.0"]);

    const unpub = jsonLine(
      ok(
        await dev.cli(
          ["executa", "unpublish", "weather", "--yes", "--confirm", "weather", "--json"],
          dir,
        ),
      ),
    );
    expect(unpub).toEqual({ host: nexus.url, tool_id: toolId, visibility: "private" });
    const pub = jsonLine(
      ok(await dev.cli(["executa", "publish", "--publish", "--json"], dir)),
    ) as Record<string, unknown>;
    expect(pub).toMatchObject({ published_public: true, visibility: "public", version: "1.1.0" });

    const del = jsonLine(
      ok(
        await dev.cli(
          ["executa", "delete", "weather", "--yes", "--confirm", "weather", "--json"],
          dir,
        ),
      ),
    );
    expect(del).toEqual({ host: nexus.url, tool_id: toolId, deleted: true, archived: false });
    expect(jsonLine(ok(await dev.cli(["executa", "list", "--json"], dir)))).toMatchObject({
      executas: [],
    });
    // The cached id now 404s: the next publish mints a new executa.
    const reborn = jsonLine(ok(await dev.cli(["executa", "publish", "--json"], dir))) as Record<
      string,
      unknown
    >;
    expect(reborn.first_publish).toBe(true);
    expect(reborn.tool_id).not.toBe(toolId);
  });

  it("top-level publish picks the executa, publishes a skill, and refuses both/neither with exit 4", async () => {
    const dev = await developer("skills");
    const skill = tempDir("executa-publish-skill-");
    await writeFile(
      path.join(skill, "executa.json"),
      JSON.stringify({ slug: "coach", name: "Coach", version: "0.1.0", executa_type: "skill" }),
    );
    await writeFile(path.join(skill, "SKILL.md"), "---\nname: coach\n---\nBe kind.\n");
    const out = jsonLine(ok(await dev.cli(["publish", "--json"], skill))) as Record<
      string,
      unknown
    >;
    expect(out.tool_id).toMatch(/^skill-skills-coach-/);
    expect(out).toMatchObject({ version: "0.1.0", visibility: "app_bundled" });
    // Changed body, same version: refused with the next command.
    await writeFile(path.join(skill, "SKILL.md"), "---\nname: coach\n---\nBe kinder.\n");
    const clash = await dev.cli(["publish"], skill);
    expect(clash.code).toBe(5);
    expect(clash.stderr).toContain("--bump patch");
    expect(
      jsonLine(ok(await dev.cli(["publish", "--bump", "patch", "--json"], skill))),
    ).toMatchObject({
      version: "0.1.1",
    });

    const both = tempDir("executa-publish-both-");
    await writeFile(path.join(both, "executa.json"), "{}");
    await writeFile(path.join(both, "manifest.json"), "{}");
    const b = await dev.cli(["publish"], both);
    expect(b.code).toBe(4);
    expect(b.stderr).toContain("both manifest.json and executa.json");
    const neither = await dev.cli(["publish"], tempDir("executa-publish-none-"));
    expect(neither.code).toBe(4);
    expect(neither.stderr).toContain("neither manifest.json");
  });

  it("names what is missing: a handle, executa.json fields, an undeclared profile", async () => {
    const nobody = await developer(null);
    const dir = await toolFolder();
    const noHandle = await nobody.cli(["executa", "publish"], dir);
    expect(noHandle.code).toBe(5);
    expect(noHandle.stderr).toContain("anna-app account set-handle");

    const dev = await developer("fields");
    const bare = tempDir("executa-publish-bare-");
    await writeFile(
      path.join(bare, "executa.json"),
      JSON.stringify({ tool_id: "x", type: "python" }),
    );
    const fields = await dev.cli(["executa", "publish"], bare);
    expect(fields.code).toBe(4);
    expect(fields.stderr).toMatch(/add "slug".*"name".*"version"/);

    const profiled = await toolFolder({
      distribution: {
        active: "binary",
        profiles: { binary: { type: "binary" }, local: { type: "local" } },
      },
    });
    const undeclared = await dev.cli(
      ["executa", "publish", "--profile", "npm", "--dry-run"],
      profiled,
    );
    expect(undeclared.code).toBe(4);
    expect(undeclared.stderr).toContain("declared: binary, local");
    const local = jsonLine(
      ok(
        await dev.cli(
          ["executa", "publish", "--profile", "local", "--dry-run", "--json"],
          profiled,
        ),
      ),
    ) as { plan: { body?: Record<string, unknown> }[] };
    expect(local.plan[2]!.body).toMatchObject({ distribution_type: "local" });
  });

  it("register uses the saved credentials and prints the dev app the server registered", async () => {
    const dev = await developer("reg");
    const dir = path.join(dev.home, ".config", "anna");
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, "credentials.json"),
      JSON.stringify({
        version: 1,
        current: nexus.url,
        accounts: {
          [nexus.url]: {
            host: nexus.url,
            user_id: null,
            pat: dev.pat,
            issued_at: 0,
            expires_at: 0,
            scopes: [],
          },
        },
      }),
    );
    const r = await dev.cli(
      ["executa", "register", "--tool-id", "tool-reg-x-abcdef", "--json"],
      dev.home,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      host: nexus.url,
      slug: "executa-tool-reg-x-abcdef",
      tool_id: "tool-reg-x-abcdef",
    });
  });
});
