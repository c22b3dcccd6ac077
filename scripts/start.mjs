#!/usr/bin/env node
// `npm start`: build when something changed, then the whole platform (platform.mjs: Nexus with
// the dashboard, the example apps in its store) in this one process; `npm run dev:app` (`--app`)
// runs `anna-app dev` on the Focus Flow example instead, the app author's harness. npm runs a
// script through `sh -c`, and a shell running `a && b` neither forwards a signal to `b` nor waits
// for it once it is killed itself, so Ctrl-C delivered to npm alone (an IDE's stop button,
// `kill -INT`) left the server and its plugins running. With one process there is nothing to
// forward: `sh` execs it, npm's SIGINT reaches the server, and it exits 130 once it has stopped.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** What `npm run dev:app -- <flags>` runs; the flags given after `--` are appended. */
const DEV_APP_ARGS = ["dev", "--manifest", "examples/apps/focus-flow/manifest.json"];

/** The build runs as a child (tsc and esbuild); a signal meanwhile goes on to it. */
async function build() {
  const child = spawn(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });
  const forward = (signal) => child.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  try {
    return await new Promise((resolve) =>
      child.once("exit", (code, signal) =>
        resolve(signal === null ? (code ?? 1) : 128 + constants.signals[signal]),
      ),
    );
  } finally {
    process.off("SIGINT", forward);
    process.off("SIGTERM", forward);
  }
}

const [mode, ...rest] = process.argv.slice(2);
const devApp = mode === "--app";
const flags = devApp ? rest : process.argv.slice(2);
const built = await build();
if (built !== 0) {
  process.exitCode = built;
} else if (devApp) {
  process.chdir(root);
  const { main } = await import("../packages/cli/dist/main.js");
  process.exitCode = await main([...DEV_APP_ARGS, ...flags]);
} else {
  const { startPlatform } = await import("./platform.mjs");
  process.exitCode = await startPlatform(flags);
}
