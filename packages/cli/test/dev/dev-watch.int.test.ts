// Live reload: a save in the bundle reaches the dashboard's panel stream as one `reload`.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { needs } from "../../../../tests/support/toolchains.js";
import { rpc, scaffoldTestApp, startHarness, tokenOf } from "./helpers.js";

const python = needs("python3");

/** A ceiling for a loaded 2-core CI box, not the speed target (bench/app-dev measures that). */
const RELOAD_TIMEOUT_MS = 10_000;

describe("anna-app dev live reload", () => {
  it("pushes a reload event to the dashboard after a bundle file changes", async () => {
    const app = await scaffoldTestApp();
    const server = await startHarness(app, { watch: true });
    const abort = new AbortController();
    const res = await fetch(`${server.url}dev/stream`, { signal: abort.signal });
    try {
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      // The stream is open once its first comment arrives; only then save.
      let text = decoder.decode((await reader.read()).value);
      writeFileSync(path.join(app.dir, "bundle/style.css"), "body { color: red; }\n");
      const reload = (async () => {
        while (!text.includes("event: reload")) {
          const { value, done } = await reader.read();
          if (done) throw new Error("stream ended");
          text += decoder.decode(value);
        }
      })();
      let timer: NodeJS.Timeout | undefined;
      // The assertion: a reload arrives (the race rejects after the ceiling otherwise).
      await Promise.race([
        reload,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("no reload")), RELOAD_TIMEOUT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
    } finally {
      abort.abort();
    }
  });

  it.skipIf(python.skip)(
    `stops a running executa when its source changes, and the next invoke starts the new code${python.reason}`,
    async () => {
      const app = await scaffoldTestApp();
      const server = await startHarness(app, { watch: true });
      const token = tokenOf(server);
      const hello = () =>
        rpc(server, token, "tools", "invoke", {
          tool_id: app.toolId,
          method: "hello",
          args: { name: "A" },
        });
      expect((await hello()).body).toMatchObject({ ok: true, result: { message: "Hello, A!" } });
      const proc = server.host.get(server.dispatcher.userId, app.toolId);
      const stopped = new Promise<void>((resolve) => {
        proc?.on("state", ({ state }) => {
          if (state === "stopped" || state === "idle") resolve();
        });
      });
      const plugin = path.join(
        app.dir,
        app.executaDir,
        `${app.handle.replace(/-/g, "_")}_plugin.py`,
      );
      writeFileSync(plugin, readFileSync(plugin, "utf8").replace("'Hello'", "'Howdy'"));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        stopped,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error("the plugin was not stopped")),
            RELOAD_TIMEOUT_MS,
          );
        }),
      ]).finally(() => clearTimeout(timer));
      expect((await hello()).body).toMatchObject({ ok: true, result: { message: "Howdy, A!" } });
    },
  );
});
