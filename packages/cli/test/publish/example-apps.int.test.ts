// What `npm start` does with examples/apps on a real Nexus (temp SQLite, 127.0.0.1): every store
// app published, reviewed, approved and live under the publisher's handle with its executa's
// binaries; the test fixture left out; a second run sends no write; a newer version in a folder
// goes out as an update; a broken folder is an error naming the example and the command.
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { DEFAULT_CONFIG } from "@anna-ai/nexus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  exampleAppDirs,
  NOT_STORE_APPS,
  publishExampleApps,
} from "../../src/publish/example-apps.js";
import { startTestNexus, type TestNexus } from "../account/nexus-server.js";
import { tempDir } from "../executa-init/helpers.js";
import { REPO } from "../test-kit/app-suite.js";
import { developerPat } from "./apps-cli.js";

const SLOW = { timeout: 180_000 };
const EXAMPLES = path.join(REPO, "examples/apps");
let nexus: TestNexus;
let pat: string;

/** The examples as the build leaves them (archives included), in a folder this test may edit. */
async function copyExamples(): Promise<string> {
  const dir = tempDir("example-apps-");
  await cp(EXAMPLES, dir, {
    recursive: true,
    filter: (src) => path.basename(src) !== "node_modules",
  });
  return dir;
}

async function storeApps(
  on: TestNexus = nexus,
): Promise<{ slug: string; handle: string; latest_version: string }[]> {
  const res = await on.call("GET", "/api/v1/store/apps");
  expect(res.status).toBe(200);
  const body = (await res.json()) as {
    items: { slug: string; handle: string; latest_version: string }[];
  };
  return body.items.sort((a, b) => a.slug.localeCompare(b.slug));
}

beforeAll(async () => {
  nexus = await startTestNexus();
  pat = await developerPat(nexus, "examples@anna.localhost", "examples");
  await nexus.makeAdmin("examples@anna.localhost");
}, 60_000);
afterAll(async () => {
  await nexus?.close();
});

describe("publishExampleApps", () => {
  it("leaves the mountBundle fixture out of the store", async () => {
    const dirs = (await exampleAppDirs(EXAMPLES)).map((d) => path.basename(d));
    expect(dirs).toEqual(["focus-flow", "picture-book-studio"]);
    expect(NOT_STORE_APPS.has("mount-bundle-smoke")).toBe(true);
  });

  it(
    "publishes every example live with its executa's binaries, then nothing, then an update",
    SLOW,
    async () => {
      const appsDir = await copyExamples();
      const first = await publishExampleApps({ host: nexus.url, pat, appsDir });
      expect(first).toEqual([
        { slug: "focus-flow", version: "0.1.0", action: "published" },
        { slug: "picture-book-studio", version: "0.1.0", action: "published" },
      ]);
      expect(await storeApps()).toMatchObject([
        { slug: "focus-flow", handle: "examples", latest_version: "0.1.0" },
        { slug: "picture-book-studio", handle: "examples", latest_version: "0.1.0" },
      ]);
      const executas = (await (
        await fetch(`${nexus.url}/api/v1/executas/my/tools`, {
          headers: { authorization: `Bearer ${pat}` },
        })
      ).json()) as unknown;
      const focus = /tool-examples-focus-session-[a-z0-9]+/.exec(JSON.stringify(executas))?.[0];
      expect(focus, JSON.stringify(executas)).toBeDefined();
      // What a server-side install reads: the frozen version with its archive per platform.
      const install = await nexus.call("GET", `/api/v1/executas/${focus}/install`, pat);
      const assets = JSON.stringify(await install.json());
      expect(install.status, assets).toBe(200);
      expect(assets).toContain("linux-x86_64");
      expect(assets).toMatch(/[0-9a-f]{64}/);
      // The checkout is not written to: publishing ran on a copy.
      expect(
        await readFile(path.join(EXAMPLES, "focus-flow/bundle/anna-tool-ids.js"), "utf8"),
      ).toContain("tool-dev-focus-session");

      const again = await publishExampleApps({ host: nexus.url, pat, appsDir });
      expect(again.map((r) => r.action)).toEqual(["unchanged", "unchanged"]);

      const appJson = path.join(appsDir, "focus-flow/app.json");
      const meta = JSON.parse(await readFile(appJson, "utf8")) as Record<string, unknown>;
      await writeFile(appJson, JSON.stringify({ ...meta, version: "0.2.0" }, null, 2));
      const updated = await publishExampleApps({ host: nexus.url, pat, appsDir });
      expect(updated).toEqual([
        { slug: "focus-flow", version: "0.2.0", action: "updated" },
        { slug: "picture-book-studio", version: "0.1.0", action: "unchanged" },
      ]);
      expect((await storeApps())[0]).toMatchObject({ slug: "focus-flow", latest_version: "0.2.0" });
    },
  );

  it("approves its own update on a server that reviews releases", SLOW, async () => {
    const reviewing = await startTestNexus({
      appLimits: { ...DEFAULT_CONFIG.appLimits, releaseReview: true },
    });
    try {
      const admin = await developerPat(reviewing, "examples@anna.localhost", "examples");
      await reviewing.makeAdmin("examples@anna.localhost");
      const appsDir = await copyExamples();
      await publishExampleApps({ host: reviewing.url, pat: admin, appsDir });
      const appJson = path.join(appsDir, "picture-book-studio/app.json");
      const meta = JSON.parse(await readFile(appJson, "utf8")) as Record<string, unknown>;
      await writeFile(appJson, JSON.stringify({ ...meta, version: "0.1.1" }, null, 2));
      const updated = await publishExampleApps({ host: reviewing.url, pat: admin, appsDir });
      expect(updated[1]).toEqual({
        slug: "picture-book-studio",
        version: "0.1.1",
        action: "updated",
      });
      expect((await storeApps(reviewing))[1]).toMatchObject({ latest_version: "0.1.1" });
    } finally {
      await reviewing.close();
    }
  });

  it("names the example and the command when a folder cannot be published", SLOW, async () => {
    const broken = await copyExamples();
    await rm(path.join(broken, "picture-book-studio/executas/storyteller/dist/storyteller.tar.gz"));
    const appJson = path.join(broken, "picture-book-studio/app.json");
    const meta = JSON.parse(await readFile(appJson, "utf8")) as Record<string, unknown>;
    await writeFile(appJson, JSON.stringify({ ...meta, version: "0.3.0" }));
    await expect(publishExampleApps({ host: nexus.url, pat, appsDir: broken })).rejects.toThrow(
      /publishing the example picture-book-studio: `anna-app apps publish --json --no-write` exited \d+: .*storyteller\.tar\.gz does not exist; build it first/,
    );
  });
});
