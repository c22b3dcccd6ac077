// Launch errors leave nothing behind: a busy port neither creates nor truncates the recording, and
// a `manifest.dev.seed_storage` the window refuses is a launch error naming it, after which the
// port is free again (the harness does not stay up half-started); a bundle folder that is not
// there is named at launch.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startDevServer } from "../../src/dev/dev-server.js";
import { DevLaunchError } from "../../src/dev/load-app.js";
import { editManifest } from "./edit-manifest.js";
import { scaffoldTestApp } from "./helpers.js";

async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return (server.address() as { port: number }).port;
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => server.close(() => resolve()));

describe("anna-app dev launch errors", () => {
  it("a busy port leaves an existing --record file as it was and creates no default recording", async () => {
    const app = await scaffoldTestApp();
    const blocker = createServer();
    const port = await listen(blocker, 0);
    try {
      const fixtures = path.join(app.dir, "fixtures");
      mkdirSync(fixtures, { recursive: true });
      const kept = path.join(fixtures, "kept.jsonl");
      const committed =
        '{"t":0,"kind":"meta","format":1,"started_at":"2026-01-01T00:00:00.000Z"}\n';
      writeFileSync(kept, committed);
      const manifestPath = path.join(app.dir, "manifest.json");
      const launch = (record?: string) =>
        startDevServer({ manifestPath, port, watch: false, ...(record ? { record } : {}) });

      await expect(launch(kept)).rejects.toThrow(`port ${port} is in use`);
      expect(readFileSync(kept, "utf8")).toBe(committed);
      await expect(launch()).rejects.toBeInstanceOf(DevLaunchError);
      // The scaffold's fixtures/README.md explains the folder; no recording joined it.
      expect(readdirSync(fixtures).filter((file) => file.endsWith(".jsonl"))).toEqual([
        "kept.jsonl",
      ]);
    } finally {
      await closeServer(blocker);
    }
  });

  it("a bundle folder that does not exist is a launch error naming it", async () => {
    const app = await scaffoldTestApp();
    const manifestPath = path.join(app.dir, "manifest.json");
    const launch = (bundleDir?: string) =>
      startDevServer({
        manifestPath,
        port: 0,
        watch: false,
        record: false,
        ...(bundleDir === undefined ? {} : { bundleDir }),
      });
    await expect(launch(path.join(app.dir, "nope"))).rejects.toThrow(
      new DevLaunchError(`--bundle ${path.join(app.dir, "nope")}: no such folder`),
    );
    rmSync(path.join(app.dir, "bundle"), { recursive: true });
    await expect(launch()).rejects.toThrow(
      `no bundle folder at ${path.join(app.dir, "bundle")}; pass --bundle <dir>`,
    );
  });

  it("a seed_storage over the runtime_state cap is a launch error naming it, and the port is free after", async () => {
    const app = await scaffoldTestApp();
    editManifest(app.dir, (m) => {
      m.dev = { ...m.dev, seed_storage: { blob: "x".repeat(300 * 1024) } };
    });
    const probe = createServer();
    const port = await listen(probe, 0);
    await closeServer(probe);

    const error: unknown = await startDevServer({
      manifestPath: path.join(app.dir, "manifest.json"),
      port,
      watch: false,
      record: false,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DevLaunchError);
    expect((error as Error).message).toMatch(/^manifest\.dev\.seed_storage: /);
    const again = createServer();
    expect(await listen(again, port)).toBe(port);
    await closeServer(again);
  });
});
