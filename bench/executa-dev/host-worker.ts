// Baseline for the REPL throughput: the host library driven directly, in a fresh process, with
// the same router and services `executa dev` builds from the same flags. Prints one JSON line:
// the times (ms since the process started measuring) of the first and last answers.
import { ExecutaHost, detectLaunchSpec } from "@anna-ai/executa-host";
import { processIo } from "../../packages/cli/src/cli/io.js";
import { buildDevRouter } from "../../packages/cli/src/executa-dev/services.js";

const [dir, countText, withRouter] = process.argv.slice(2);
if (dir === undefined || countText === undefined) {
  throw new Error("usage: host-worker <plugin-dir> <invokes> [router|bare]");
}
const count = Number(countText);
const spec = await detectLaunchSpec(dir, { env: process.env });
const router =
  withRouter === "bare"
    ? undefined
    : await buildDevRouter({}, processIo(), { toolId: spec.toolId });
const host = new ExecutaHost({ env: process.env, ...(router ? { router: router.factory } : {}) });
host.register(spec, { userId: "dev-user" });
try {
  await host.describe("dev-user", spec.toolId);
  const started = performance.now();
  let first = 0;
  for (let i = 0; i < count; i++) {
    const outcome = await host.invoke("dev-user", spec.toolId, "echo", { text: `n${i}` });
    if (!outcome.ok) throw new Error(`invoke ${i} failed`);
    if (i === 0) first = performance.now() - started;
  }
  const last = performance.now() - started;
  process.stdout.write(JSON.stringify({ first, last, count }) + "\n");
} finally {
  await host.close();
  await router?.close();
}
