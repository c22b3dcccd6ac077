// The whole platform in one process, for `npm start`: Nexus (`anna-nexus start`, so every flag of
// it works: --port, --data, --host, …) with the dashboard at `/`, and once it listens: the first
// admin on an empty users table, the example apps published into its App Store through the CLI's
// real publish path, and a banner for the person at the terminal. This file only wires the two
// packages together (neither may import the other); each part lives and is tested in its package.
import path from "node:path";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";
import { renderBanner, sandboxPhrase } from "../packages/nexus/dist/cli/banner.js";
import { ExitError } from "../packages/nexus/dist/cli/exit.js";
import {
  ensureFirstAdmin,
  examplesPublisherToken,
} from "../packages/nexus/dist/cli/platform-accounts.js";
import { runStart } from "../packages/nexus/dist/cli/start.js";
import { publishExampleApps } from "../packages/cli/dist/publish/example-apps.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const APPS_DIR = path.join(root, "examples/apps");

const ACTION_WORDS = {
  published: "published to the App Store",
  updated: "published as an update",
  unchanged: "already in the App Store",
};

/** Resolves with the first SIGINT/SIGTERM; the exit code then says which (130, 143). */
function stopSignal() {
  return new Promise((resolve) => {
    const on = (sig) => {
      process.off("SIGINT", on);
      process.off("SIGTERM", on);
      resolve(sig);
    };
    process.once("SIGINT", on);
    process.once("SIGTERM", on);
  });
}

/** What this start did with the example apps, one banner line each; never a reason to stop. */
async function publishExamples(server) {
  const token = await examplesPublisherToken(server.stores, Date.now());
  try {
    const results = await publishExampleApps({
      host: server.origin,
      pat: token.pat,
      appsDir: APPS_DIR,
      signal: server.stopping,
    });
    server.logger.log("info", "example apps", {
      apps: results.map((r) => ({ slug: r.slug, version: r.version, action: r.action })),
    });
    return results.map((r) => `${r.slug} ${r.version} ${ACTION_WORDS[r.action]}`);
  } catch (err) {
    if (server.stopping.aborted) return ["stopped before the example apps were published"];
    server.logger.log("error", "example apps not published", { error: err.message });
    return [`example apps not published: ${err.message}`];
  } finally {
    await token.revoke(Date.now());
  }
}

export async function startPlatform(argv) {
  const io = {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    stdin: process.stdin,
    stderrIsTty: process.stderr.isTTY === true,
    env: process.env,
    cwd: process.cwd(),
  };
  let stoppedBy;
  const stop = stopSignal().then((sig) => (stoppedBy = sig));
  const onListening = async (server) => {
    const admin = await ensureFirstAdmin(server.stores, Date.now());
    const apps = await publishExamples(server);
    const color = process.stdout.isTTY === true && !process.env.NO_COLOR;
    const facts = {
      url: server.origin,
      admin,
      chatModel: server.chatModel,
      sandbox: sandboxPhrase(process.env),
      dataDir: server.dataDir,
      database: server.database,
      apps,
      dashboard: server.dashboard,
    };
    process.stdout.write(renderBanner(facts, color));
  };
  try {
    const code = await runStart(argv, io, { stopSignal: stop, onListening });
    return stoppedBy === undefined ? code : 128 + constants.signals[stoppedBy];
  } catch (err) {
    if (err instanceof ExitError) {
      process.stderr.write(`npm start: ${err.message}\n`);
      return err.exitCode;
    }
    process.stderr.write(`npm start: unexpected error: ${err?.stack ?? err}\n`);
    return 1;
  }
}
