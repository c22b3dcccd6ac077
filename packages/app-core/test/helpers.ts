import { AppManifestSchema, type AppManifest } from "@anna-ai/app-schema";
import { createDispatcher, type Dispatcher, type DispatcherOptions } from "../src/index.js";

/** A schema-2 manifest with two views; `hostApi` becomes `ui.host_api`. */
export function manifestWith(
  hostApi: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): AppManifest {
  return AppManifestSchema.parse({
    schema: 2,
    required_executas: ["tool-examples-ts-notes-00000001"],
    ui: {
      bundle: { entry: "index.html" },
      views: [
        {
          name: "main",
          title: "Main",
          default: true,
          min_size: { w: 320, h: 240 },
          default_size: { w: 800, h: 600 },
          max_size: { w: 1200, h: 900 },
        },
        { name: "panel", title: "Panel", single_instance: true },
      ],
      host_api: hostApi,
    },
    ...extra,
  });
}

/** A clock the test moves by hand. */
export function fakeClock(start = Date.UTC(2026, 0, 1)): {
  now: () => number;
  advance(ms: number): void;
} {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

export async function openDispatcher(
  hostApi: Record<string, unknown>,
  options: Partial<DispatcherOptions> = {},
): Promise<{ dispatcher: Dispatcher; token: string; wid: string }> {
  const dispatcher = createDispatcher({
    manifest: manifestWith(hostApi),
    appId: "app-1",
    ...options,
  });
  const opened = await dispatcher.openWindow("main");
  return { dispatcher, token: opened.token, wid: opened.window.window_uuid as string };
}
