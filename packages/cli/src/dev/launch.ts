// The launch steps of `anna-app dev` that can fail, each with the launch error that says what to
// do: the SDK bundle, the `--mock-llm` file, the port, and the window opened at boot.
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { isHostApiError, type Dispatcher, type OpenedWindowView } from "@anna-ai/app-core";
import { MockFixtureError } from "@anna-ai/executa-host";
import { DevLaunchError } from "./load-app.js";

/** A `--mock-llm` file that cannot be read or parsed is a launch error naming it (exit 2). */
export function mockLlmLaunchError(error: unknown): never {
  if (!(error instanceof MockFixtureError)) throw error;
  const where = error.line > 0 ? `${error.file}:${error.line}` : error.file;
  const why = error.message.slice(`${error.file}:${error.line}: `.length);
  throw new DevLaunchError(`--mock-llm ${where}: ${why}`, { cause: error });
}

/** The SDK bundle, or a launch error that says how to build it. */
export function readSdk(sdkPath: string | undefined): Buffer {
  let file = sdkPath;
  try {
    file ??= createRequire(import.meta.url).resolve("@anna-ai/app-runtime/bundle");
    return readFileSync(file);
  } catch (error) {
    throw new DevLaunchError(
      `the app SDK bundle is missing (${file ?? "@anna-ai/app-runtime/bundle"}); run npm run build`,
      { cause: error },
    );
  }
}

/** Listens on `host:port` and answers the port bound (`port` 0 picks a free one). */
export async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new DevLaunchError(
          error.code === "EADDRINUSE"
            ? `port ${port} is in use; pass --port <n> (0 picks a free one)`
            : `cannot listen: ${error.message}`,
          { cause: error },
        ),
      ),
    );
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** Opens the boot window and applies `manifest.dev.seed_storage` to it. */
export async function openBootWindow(
  dispatcher: Dispatcher,
  view: string | undefined,
  userId: string,
  seedStorage: Record<string, unknown> | null | undefined,
): Promise<OpenedWindowView> {
  const opened = await dispatcher.openWindow(view, { userId });
  if (seedStorage) {
    const wid = String(opened.window.window_uuid);
    await dispatcher
      .patchWindow(wid, { runtime_state_patch: seedStorage }, userId)
      .catch((error: unknown) => {
        if (!isHostApiError(error)) throw error;
        throw new DevLaunchError(`manifest.dev.seed_storage: ${error.message}`, {
          cause: error,
        });
      });
  }
  return opened;
}

/** Stops listening and drops open connections (event streams would hold close() forever). */
export async function stopServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
