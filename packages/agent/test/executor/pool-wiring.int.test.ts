// What the pool wires through to a sandboxed plugin exactly as the host does unsandboxed:
// reverse RPCs to the services given (sampling here, via the ReverseRpcRouter and its grants),
// and `__file_transport` frames the plugin writes to its private tmp (T2).
import { fileURLToPath } from "node:url";
import {
  createAllowAllGrantPolicy,
  createRecordingServices,
  type LaunchSpec,
} from "@anna-ai/executa-host";
import { describe, expect, it, onTestFinished } from "vitest";
import { ExecutaPool, type PoolExecuta } from "../../src/index.js";
import {
  BWRAP,
  FAST,
  SKIP_REASON,
  bwrapOptions,
  reachableCopy,
  sandboxRoot,
} from "./sandbox-helpers.js";

// The host's own fixture plugin (plain node, its helpers in the same folder).
const ECHO_DIR = fileURLToPath(
  new URL("../../../executa-host/test/fixtures/plugins/", import.meta.url),
);

function echo(): PoolExecuta {
  const dir = reachableCopy(ECHO_DIR);
  const spec: LaunchSpec = {
    toolId: "echo",
    type: "node",
    dir,
    command: ["node", "echo.mjs"],
    cwd: dir,
    env: {},
    binaryColdStart: false,
    source: "test",
    warnings: [],
  };
  return { spec, trusted: false };
}

if (!BWRAP.usable) console.warn(`skipping pool wiring tests: ${SKIP_REASON}`);

describe.skipIf(!BWRAP.usable)("a sandboxed plugin's wiring", () => {
  it("serves its reverse RPCs from the services given to the pool", async () => {
    const recording = createRecordingServices();
    const p = new ExecutaPool({
      sandbox: bwrapOptions(sandboxRoot()),
      services: recording,
      grants: createAllowAllGrantPolicy(),
      ...FAST,
    });
    onTestFinished(() => p.close());
    const outcome = await p.invoke("alice", echo(), "ask", {});
    expect(outcome.ok).toBe(true);
    expect(recording.calls).toEqual([
      expect.objectContaining({
        service: "sampling",
        method: "createMessage",
        ctx: expect.objectContaining({ userId: "alice", toolId: "echo" }),
      }),
    ]);
  });

  it("reads a frame the plugin sent through a file in its private tmp", async () => {
    const p = new ExecutaPool({ sandbox: bwrapOptions(sandboxRoot()), ...FAST });
    onTestFinished(() => p.close());
    const outcome = await p.invoke("alice", echo(), "file_transport", { bytes: 4096 });
    expect(outcome).toMatchObject({ ok: true, data: "z".repeat(4096) });
  });
});
