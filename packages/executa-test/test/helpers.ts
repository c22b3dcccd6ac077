// Where the plugins these tests run live, and how to start one so it is gone when the test ends.
// The example paths, the command probe and the offline Go settings are the e2e suite's own.

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { onTestFinished } from "vitest";
import { startPlugin, type StartDirOptions, type StartedPlugin } from "@anna-ai/executa-test";
import { REPO_ROOT } from "../../../tests/e2e/examples/example-plugins.js";

export { EXAMPLES_DIR, goEnv } from "../../../tests/e2e/examples/example-plugins.js";

/** The host's misbehaving fixture plugins (bad frames, wrapped describe, crashes, …). */
export const HOST_FIXTURES_DIR = join(REPO_ROOT, "packages/executa-host/test/fixtures/plugins");
export const LENIENT_DIR = fileURLToPath(new URL("./fixtures/lenient", import.meta.url));
/** Passes the conformance suite; CONFORMANCE_FAULTS=<fault,…> breaks one rule per fault. */
export const CONFORMANCE_DIR = fileURLToPath(new URL("./fixtures/conformance", import.meta.url));

/** `go run` compiles before it answers: a cold build on a busy 2-core runner takes a while. */
export const GO_RUN_TIMEOUT_MS = 120_000;

/** `startPlugin`, disposed when the test ends whatever happened. */
export async function started(options: StartDirOptions): Promise<StartedPlugin> {
  const plugin = await startPlugin(options);
  onTestFinished(() => plugin.client.dispose());
  return plugin;
}
