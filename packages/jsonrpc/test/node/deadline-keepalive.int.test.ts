// The peer's one deadline timer (src/deadline-timer.ts) stays armed after a reply: it must hold
// the process open only while a request with a deadline is pending. Checked in a real child
// process, since only the event loop itself can tell.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const DIST = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
/** Far beyond what either script needs: a child still running at this point has hung. */
const HUNG_AFTER_MS = 20_000;

function runScript(body: string): Promise<{ code: number | null; stdout: string }> {
  const script = `import { RpcPeer, createMemoryPair } from ${JSON.stringify(DIST)};\n${body}`;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--input-type=module", "-e", script],
      { timeout: HUNG_AFTER_MS },
      (error, stdout) => {
        if (error !== null && error.killed) reject(new Error(`child still running: ${stdout}`));
        else resolve({ code: error === null ? 0 : (error.code as number), stdout });
      },
    );
  });
}

describe("RpcPeer deadline timer and the event loop", () => {
  it("lets the process exit once a request with a 10-minute timeout has been answered", async () => {
    const { code, stdout } = await runScript(`
      const [a, b] = createMemoryPair();
      const host = new RpcPeer(a);
      const plugin = new RpcPeer(b);
      plugin.onRequest("echo", (params) => params);
      host.start();
      plugin.start();
      console.log(await host.request("echo", "hi", { timeoutMs: 600_000 }));
    `);
    expect({ code, stdout: stdout.trim() }).toEqual({ code: 0, stdout: "hi" });
  });

  it("keeps the process alive until a pending request times out", async () => {
    const { code, stdout } = await runScript(`
      const [a, b] = createMemoryPair();
      const host = new RpcPeer(a);
      const plugin = new RpcPeer(b);
      plugin.onRequest("hang", () => new Promise(() => {}));
      host.start();
      plugin.start();
      await host.request("echo", "warm", { timeoutMs: 600_000 }).catch(() => undefined);
      host.request("hang", {}, { timeoutMs: 50 }).catch((error) => console.log(error.code));
    `);
    expect({ code, stdout: stdout.trim() }).toEqual({ code: 0, stdout: "TIMEOUT" });
  });
});
