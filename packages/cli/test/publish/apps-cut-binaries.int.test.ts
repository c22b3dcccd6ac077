// `apps cut` uploads the binary_artifacts of bundled executas before the freeze, as `apps
// publish` does (real-world-cli.md, the `apps cut` row), through the built CLI against a real
// Nexus on 127.0.0.1 (SQLite, filesystem blobs, 8-byte parts): the cut's dry run plans B1–B5
// with the archives' sha256, the cut finds what `apps push` uploaded (`exists`) and the frozen
// executa pins it; an archive rebuilt after the push without a bump stops the cut before A16
// with the bump hint; an executa with no tool_id is exit 4 before any request.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestNexus, type TestNexus } from "../account/nexus-server.js";
import { jsonLine, tempDir } from "../executa-init/helpers.js";
import { appsCli, developerPat, fail, ok } from "./apps-cli.js";

const SLOW = { timeout: 300_000 };
const DEV = "/api/v1/anna-apps/dev";
const LINUX = Buffer.from("linux archive bytes for the cut test");
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
let nexus: TestNexus;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  nexus = await startTestNexus({ binaries: { partBytes: 8 } });
  env = {
    ANNA_APP_HOST: nexus.url,
    ANNA_APP_PAT: await developerPat(nexus, "cutter@example.com", "cutter"),
  };
}, 60_000);
afterAll(async () => {
  await nexus?.close();
});

const cli = appsCli(() => env);

async function appWithBinaryExecuta(slug: string) {
  const dir = tempDir("apps-cut-binaries-");
  const files: Record<string, unknown> = {
    "manifest.json": { schema: 1, required_executas: [{ tool_id: "bundled:grep" }] },
    "app.json": {
      slug,
      name: "Grepper",
      category: "utilities",
      version: "1.0.0",
      bundled_executas: { grep: { path: "executas/grep" } },
    },
    "executas/grep/executa.json": {
      type: "binary",
      slug: `${slug}-grep`,
      name: "Grep",
      version: "0.3.0",
      distribution: {
        type: "binary",
        binary_artifacts: {
          "linux-x86_64": { path: "dist/grep-{version}-{platform}.tar.gz", entrypoint: "bin/grep" },
        },
      },
    },
  };
  for (const [rel, v] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), JSON.stringify(v, null, 2));
  }
  await mkdir(path.join(dir, "executas/grep/dist"));
  await writeFile(path.join(dir, "executas/grep/dist/grep-0.3.0-linux-x86_64.tar.gz"), LINUX);
  return dir;
}

const cutAppId = (dir: string) =>
  (JSON.parse(readFileSync(path.join(dir, ".anna/app.json"), "utf8")) as { app_id: number }).app_id;

type Plan = { plan: { path: string; body?: { assets?: Record<string, { sha256: string }> } }[] };

describe("anna-app apps cut with bundled binary executas", SLOW, () => {
  it("sends the archives before the freeze, stops on a rebuilt one, and refuses an executa without a tool_id", async () => {
    const dir = await appWithBinaryExecuta("grepper");
    const pushed = jsonLine(ok(await cli(["apps", "push", "--json"], dir))) as {
      executas: { tool_id: string }[];
    };
    const toolId = pushed.executas[0]!.tool_id;
    const binariesOf = async () => {
      const list = (await (
        await nexus.call("GET", "/api/v1/executas/my/tools", env.ANNA_APP_PAT)
      ).json()) as { id: number; tool_id: string }[] | { items: { id: number; tool_id: string }[] };
      const rows = Array.isArray(list) ? list : list.items;
      const id = rows.find((r) => r.tool_id === toolId)!.id;
      const detail = (await (
        await nexus.call("GET", `/api/v1/executas/my/tools/${id}/detail`, env.ANNA_APP_PAT)
      ).json()) as { binary_urls?: Record<string, { sha256: string; size: number }> | null };
      return detail.binary_urls ?? {};
    };
    // `apps push` uploads them before the visibility move freezes the executa version (S2).
    expect((await binariesOf())["linux-x86_64"]).toMatchObject({ sha256: sha(LINUX) });

    const dry = jsonLine(
      ok(await cli(["apps", "cut", "1.0.0", "--dry-run", "--json"], dir)),
    ) as Plan;
    const paths = dry.plan.map((q) => q.path);
    expect(paths[0]).toBe(`${DEV}/upload-session/mint`);
    const init = dry.plan.find((q) => q.path === `${DEV}/executas/${toolId}/binaries/init`)!;
    expect(init.body!.assets!["linux-x86_64"]!.sha256).toBe(sha(LINUX));
    expect(paths.at(-1)).toMatch(/\/working\/cut$/);

    const cut = jsonLine(ok(await cli(["apps", "cut", "1.0.0", "--json"], dir))) as {
      binaries: {
        tool_id: string;
        binaries: { platforms: { status: string; sha256: string }[] };
      }[];
      frozen_executas: { tool_id: string }[];
    };
    expect(cut.binaries).toHaveLength(1);
    expect(cut.binaries[0]).toMatchObject({ tool_id: toolId });
    expect(cut.binaries[0]!.binaries.platforms).toEqual([
      expect.objectContaining({ status: "exists", sha256: sha(LINUX) }),
    ]);
    expect(cut.frozen_executas.map((f) => f.tool_id)).toEqual([toolId]);
    expect((await binariesOf())["linux-x86_64"]).toMatchObject({
      sha256: sha(LINUX),
      size: LINUX.length,
    });

    // Rebuilt after the push, no bump: the served 0.3.0 cannot change, so nothing is cut.
    await writeFile(path.join(dir, "executas/grep/dist/grep-0.3.0-linux-x86_64.tar.gz"), "rebuilt");
    const rebuilt = await cli(["apps", "cut", "1.0.1"], dir);
    expect(rebuilt.code).toBe(5);
    expect(rebuilt.stderr).toMatch(/409 version_frozen.*bump the version in executa\.json/);
    const versions = (await (
      await nexus.call(
        "GET",
        `/api/v1/developer/apps/${String(cutAppId(dir))}/versions`,
        env.ANNA_APP_PAT,
      )
    ).json()) as { version: string }[];
    expect(versions.map((v) => v.version)).toEqual(["1.0.0"]);

    // The executa's identity and the lock gone: the cut cannot name the tool and sends nothing.
    await rm(path.join(dir, "executas/grep/.anna"), { recursive: true, force: true });
    await rm(path.join(dir, ".anna/executas.lock.json"), { force: true });
    fail(
      await cli(["apps", "cut", "1.0.1"], dir),
      4,
      'bundled executa "grep" (executas/grep) declares binary_artifacts but has no tool_id',
    );
  });
});
