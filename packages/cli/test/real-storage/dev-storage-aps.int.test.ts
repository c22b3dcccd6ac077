// `anna-app dev --storage aps` against a real Nexus over real HTTP: the app's `storage.*` calls
// (through the runtime rpc, as the dashboard bridge makes them) land in the server's `app` scope
// for the app's slug, readable there with the developer's PAT, and survive a harness restart;
// the saved account comes from a credentials file in a private config folder.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { rpc, scaffoldTestApp, SLUG, startHarness, tokenOf } from "../dev/helpers.js";
import { savedAccountEnv, startStorageNexus } from "./storage-nexus.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A private config folder with one saved account: `host` with `pat`. */
async function savedAccount(host: string, pat: string): Promise<NodeJS.ProcessEnv> {
  const dir = mkdtempSync(path.join(tmpdir(), "cli-aps-config-"));
  closers.push(async () => rmSync(dir, { recursive: true, force: true }));
  return savedAccountEnv(dir, host, pat);
}

describe("anna-app dev --storage aps", () => {
  it("keeps the app's storage on the server, in the app scope of its slug", async () => {
    const nexus = await startStorageNexus();
    closers.push(() => nexus.close());
    const { pat } = await nexus.developer("dev@example.com");
    const env = await savedAccount(nexus.url, pat);
    const app = await scaffoldTestApp();

    const first = await startHarness(app, { storage: "aps", env });
    expect(first.storage).toBe("aps");
    expect(first.storageLabel).toBe(`real (${nexus.url}, app ${SLUG})`);
    const set = await rpc(first, tokenOf(first), "storage", "set", { key: "visits", value: 3 });
    expect(set.body).toMatchObject({ ok: true });
    await first.close();

    // What the server holds, read with the PAT as the dashboard would.
    const res = await fetch(`${nexus.url}/api/v1/storage/kv?scope=app&app_id=${SLUG}&key=visits`, {
      headers: { authorization: `Bearer ${pat}` },
    });
    expect(await res.json()).toMatchObject({ value: 3, exists: true });

    const second = await startHarness(app, { storage: "aps", env });
    const got = await rpc(second, tokenOf(second), "storage", "get", { key: "visits" });
    expect(got.body).toMatchObject({ ok: true, result: { value: 3 } });
  });

  it("stops the start with one line when the server cannot be reached", async () => {
    const nexus = await startStorageNexus();
    const { pat } = await nexus.developer("dev@example.com");
    const env = await savedAccount(nexus.url, pat);
    await nexus.close();
    const app = await scaffoldTestApp();
    await expect(startHarness(app, { storage: "aps", env })).rejects.toThrow(
      /^--storage aps: cannot get a storage token: cannot reach http:\/\/127\.0\.0\.1:\d+ \(POST \/api\/v1\/anna-apps\/dev\/storage\/mint\): connection refused \(is the server running\?\)$/,
    );
  });
});
