// Ours: an ExecutaHost pool running the SDK plugin, with a ReverseRpcRouter whose storage
// service answers at once, so the reverse figure is the protocol path, not a store.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { DEFAULT_RUN_AS, Sandbox, unreachableBy } from "@anna-ai/agent";
import {
  ExecutaHost,
  type LaunchSpec,
  type PluginLauncher,
  type SupervisorMode,
} from "@anna-ai/executa-host";
import type { ChildEnv } from "../child-env.js";
import { pluginPidUnder } from "../proc-memory.js";
import { PLUGINS_DIR, REPO_DIR, pluginPath } from "../paths.js";
import type { BenchClient } from "./bench-client.js";
import { createInstantRouter } from "./instant-router.js";

const USER_ID = "bench-user";
/** Fail a stuck call in seconds, not after the 60 s default, so one bad round cannot stall a run. */
const INVOKE_TIMEOUT_MS = 15_000;
const INVOKE_OPTIONS = { timeoutMs: INVOKE_TIMEOUT_MS } as const;
const TOOL_ID = "bench-sdk";

/**
 * Built by hand instead of detectLaunchSpec: detection reads the plugin's files once per
 * registration, which the spawn → ready figure should not include.
 */
function pluginSpec(file: string): LaunchSpec {
  return {
    toolId: TOOL_ID,
    type: "node",
    dir: PLUGINS_DIR,
    command: [process.execPath, pluginPath(file)],
    cwd: PLUGINS_DIR,
    env: {},
    binaryColdStart: false,
    source: "bench",
    warnings: [],
  };
}

function unwrap(outcome: Awaited<ReturnType<ExecutaHost["invoke"]>>): unknown {
  if (outcome.ok) return outcome.data;
  if (outcome.kind === "tool_failed") throw new Error(`tool failed: ${outcome.error}`);
  throw outcome.error;
}

class OursClient implements BenchClient {
  readonly #host: ExecutaHost;
  readonly pid: number;

  constructor(host: ExecutaHost, pid: number) {
    this.#host = host;
    this.pid = pid;
  }

  async echo(text: string): Promise<string> {
    const data = unwrap(
      await this.#host.invoke(USER_ID, TOOL_ID, "echo", { text }, INVOKE_OPTIONS),
    ) as {
      text: string;
    };
    return data.text;
  }

  async reverse(): Promise<number> {
    const data = unwrap(
      await this.#host.invoke(USER_ID, TOOL_ID, "reverse", {}, INVOKE_OPTIONS),
    ) as {
      reverse_ms: number;
    };
    return data.reverse_ms;
  }

  async flood(bytes: number): Promise<void> {
    unwrap(await this.#host.invoke(USER_ID, TOOL_ID, "flood", { bytes }, INVOKE_OPTIONS));
  }

  close(): Promise<void> {
    return this.#host.close();
  }
}

async function launchOnHost(
  env: ChildEnv,
  file: string,
  supervisor: SupervisorMode = "auto",
  launcher?: PluginLauncher,
): Promise<BenchClient> {
  const host = new ExecutaHost({ env, router: createInstantRouter(), supervisor });
  const plugin = host.register(pluginSpec(file), {
    userId: USER_ID,
    ...(launcher === undefined ? {} : { launcher }),
  });
  await host.describe(USER_ID, TOOL_ID);
  return new OursClient(host, pluginPidUnder(plugin.pid ?? -1));
}

export const launchOurs = (env: ChildEnv): Promise<BenchClient> =>
  launchOnHost(env, "sdk-plugin.mjs");

/**
 * Ours with the plugin in the server's bubblewrap sandbox (the agent's `Sandbox`, as Nexus runs
 * every Hub plugin): its own PID namespace, read-only system, private home and tmp, prlimits,
 * the server's uid dropped. The checkout is bound read-only so the SDK plugin finds its package;
 * a checkout nobody cannot reach (under a 0700 parent) runs the sandbox as this uid instead.
 */
export async function launchOursSandboxed(env: ChildEnv): Promise<BenchClient> {
  const root = mkdtempSync(join(tmpdir(), "anna-bench-sandbox-"));
  chmodSync(root, 0o711);
  const me = userInfo();
  const sandbox = new Sandbox({
    mode: "bwrap",
    root,
    readOnlyPaths: [REPO_DIR],
    // The sandbox's own reachability rule (nobody under root; the caller's uid otherwise).
    ...(process.getuid?.() === 0 && unreachableBy(REPO_DIR, DEFAULT_RUN_AS) !== undefined
      ? { runAs: { uid: me.uid, gid: me.gid } }
      : {}),
  });
  const probe = sandbox.probe();
  if (!probe.usable) throw new Error(`the bwrap sandbox cannot run here: ${probe.reason}`);
  const client = await launchOnHost(
    env,
    "sdk-plugin.mjs",
    "auto",
    sandbox.pluginLauncher(USER_ID, TOOL_ID, PLUGINS_DIR),
  );
  return {
    pid: client.pid,
    echo: (text) => client.echo(text),
    reverse: () => client.reverse(),
    flood: (bytes) => client.flood(bytes),
    close: async () => {
      await client.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Diagnostic: ours without the bubblewrap supervisor, to isolate what the PID namespace costs. */
export const launchOursUnsupervised = (env: ChildEnv): Promise<BenchClient> =>
  launchOnHost(env, "sdk-plugin.mjs", "none");

/** Diagnostic: the floor plugin under our host, to isolate the host-side cost. */
export const launchFloorOnOurs = (env: ChildEnv): Promise<BenchClient> =>
  launchOnHost(env, "floor-plugin.mjs");
