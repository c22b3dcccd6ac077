// Live reload (bundle saves → one `reload` to the page) and plugin restart (executa source
// saves → the plugin stops and respawns on its next invoke). `fs.watch` fires several times per
// save, so changes are debounced.
import { watch, type FSWatcher } from "node:fs";
import type { LaunchSpec } from "@anna-ai/executa-host";

/** Saves closer together than this are one change (editors write in several steps). */
export const WATCH_DEBOUNCE_MS = 50;

/** Folders whose changes never matter (caches, VCS, dependencies). */
const IGNORED = /(^|[/\\])(node_modules|\.git|__pycache__|\.venv|\.pytest_cache|dist)([/\\]|$)/;

export interface Watcher {
  close(): void;
}

export function watchBundle(dir: string, onChange: () => void): Watcher {
  return debouncedWatch(dir, onChange);
}

export function watchExecutas(
  specs: readonly LaunchSpec[],
  onChange: (toolId: string) => void,
): Watcher[] {
  return specs.map((spec) => debouncedWatch(spec.dir, () => onChange(spec.toolId)));
}

function debouncedWatch(dir: string, onChange: () => void): Watcher {
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dir, { recursive: true }, (_event, file) => {
      if (typeof file === "string" && IGNORED.test(file)) return;
      clearTimeout(timer);
      timer = setTimeout(onChange, WATCH_DEBOUNCE_MS);
    });
    // A folder deleted under the watcher is not a reason to crash the harness.
    watcher.on("error", () => watcher?.close());
  } catch {
    watcher = undefined;
  }
  return {
    close() {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
