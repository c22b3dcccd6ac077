// R80's batch: at most three installs in flight, and one failure never stops the others.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it, onTestFinished } from "vitest";
import { tarGz } from "../../../../tests/support/archives.js";
import { type BatchOutcome, installBatch } from "../../src/install/index.js";
import { currentOf, shPlugin, tempHome } from "./helpers.js";

const MANIFEST = JSON.stringify({ runtime: { binary: { entrypoint: "bin/sh-tool" } } });
const BODY = tarGz([
  { name: "bin/sh-tool", data: shPlugin("1.0.0"), mode: 0o755 },
  { name: "manifest.json", data: MANIFEST },
]);

/** Holds every response until released, so the test can count what is in flight. */
async function gatedServer() {
  const held: { path: string; res: ServerResponse }[] = [];
  let maxHeld = 0;
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    held.push({ path: req.url ?? "", res });
    maxHeld = Math.max(maxHeld, held.length);
    for (const w of waiters.splice(0)) w();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  onTestFinished(async () => {
    for (const h of held) h.res.destroy();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: (p: string) => `http://127.0.0.1:${port}${p}`,
    held,
    maxHeld: () => maxHeld,
    async waitHeld(n: number) {
      const deadline = Date.now() + 10_000;
      while (held.length < n) {
        if (Date.now() > deadline)
          throw new Error(`only ${held.length} requests arrived, wanted ${n}`);
        await new Promise<void>((r) => waiters.push(r));
      }
    },
    releaseAll() {
      for (const h of held.splice(0)) {
        if (h.path.startsWith("/missing")) h.res.writeHead(404).end("gone");
        else h.res.writeHead(200, { "content-length": String(BODY.length) }).end(BODY);
      }
    },
  };
}

describe("installBatch", () => {
  it("runs three at a time and reports the one failure without aborting the rest", async () => {
    const home = tempHome();
    const server = await gatedServer();
    const ids = ["a", "b", "c", "d", "e"].map((x) => `tool-ada-${x}-000001`);
    const requests = ids.map((id, i) => ({
      distribution_type: "binary",
      tool_id: id,
      version: "1.0.0",
      executable_name: `tool-${i}`,
      binary_urls: { "*": server.url(i === 1 ? `/missing-${id}.tar.gz` : `/${id}.tar.gz`) },
    }));
    const seen: BatchOutcome[] = [];
    const done = installBatch(requests, { home, env: {}, onOutcome: (o) => seen.push(o) });
    await server.waitHeld(3);
    // Three requests are held; a fourth must not start while they are.
    await delay(200);
    expect(server.held.length).toBe(3);
    server.releaseAll();
    await server.waitHeld(2);
    server.releaseAll();
    const outcomes = await done;
    expect(server.maxHeld()).toBe(3);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true, true, true]);
    const failed = outcomes[1]!;
    expect(failed.ok === false && failed.error.code).toBe("DOWNLOAD_FAILED");
    expect(failed.ok === false && failed.error.message).toMatch(/answered 404/);
    expect(seen).toHaveLength(5);
    for (const [i, id] of ids.entries()) {
      if (i !== 1) expect(currentOf(home, id)).toBe("v1.0.0");
    }
  });
});
