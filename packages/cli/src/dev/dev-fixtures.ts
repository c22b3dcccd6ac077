// `manifest.dev.fixtures` (L5004, L5015, L7435, L7915; D21a): globs, relative to the manifest's
// folder, of the session recordings the harness replays. The harness records into the folder the
// first glob starts in ("wherever manifest.dev.fixtures points", L7915), lists every matching
// recording at boot and on `/dev/api/fixtures`, and replays one into a live window on request
// (fixture-replay.ts). Matching is `anna-app validate`'s, so both agree on what a glob names.
import { stat } from "node:fs/promises";
import path from "node:path";
import type { FixtureFileKind } from "@anna-ai/app-schema";
import { probeFixtureKind } from "../fixture/read-fixture.js";
import { globToRegExp, staticPrefix } from "../validate/layers/dev-fixtures.js";
import { relativePath, walkFiles } from "../validate/walk.js";

/** Where sessions are recorded when the manifest declares no fixtures (A10). */
export const DEFAULT_FIXTURES_DIR = "fixtures";

export interface DevFixtureFile {
  /** `/`-separated, relative to the project folder: the name the replay endpoint takes. */
  file: string;
  bytes: number;
  /** ISO time of the last change. */
  modified: string;
  /** A recording, or a mock-answer file or app data the globs also match (not replayable). */
  kind: FixtureFileKind;
}

export interface DevFixtures {
  /** `manifest.dev.fixtures` as written (empty when absent). */
  readonly globs: readonly string[];
  /** Absolute folder new session recordings go to. */
  readonly recordDir: string;
  /** The recordings the globs match now, sorted by name. */
  list(): Promise<DevFixtureFile[]>;
  /** The absolute path of a listed recording, or undefined for any name the globs do not list. */
  resolve(file: string): Promise<string | undefined>;
}

export function devFixtures(projectDir: string, globs: readonly string[] = []): DevFixtures {
  const patterns = globs.map((glob) => {
    const normalized = glob.replace(/^\.\//, "");
    return {
      root: path.resolve(projectDir, staticPrefix(normalized)),
      absolute: path.isAbsolute(normalized),
      regexp: globToRegExp(normalized.split(path.sep).join("/")),
    };
  });
  const first = globs[0];
  const recordDir = path.resolve(
    projectDir,
    first === undefined ? DEFAULT_FIXTURES_DIR : staticPrefix(first.replace(/^\.\//, "")),
  );
  const list = async (): Promise<DevFixtureFile[]> => {
    const found = new Map<string, string>();
    for (const pattern of patterns) {
      for (const absolute of await walkFiles(pattern.root, { accept: () => true })) {
        const name = pattern.absolute
          ? absolute.split(path.sep).join("/")
          : relativePath(projectDir, absolute);
        if (pattern.regexp.test(name)) found.set(relativePath(projectDir, absolute), absolute);
      }
    }
    const out: DevFixtureFile[] = [];
    for (const [file, absolute] of [...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const info = await stat(absolute).catch(() => undefined);
      if (info === undefined || !info.isFile()) continue;
      const kind = await probeFixtureKind(absolute).catch(() => undefined);
      if (kind === undefined) continue;
      out.push({ file, bytes: info.size, modified: info.mtime.toISOString(), kind });
    }
    return out;
  };
  return {
    globs,
    recordDir,
    list,
    async resolve(file) {
      // Only a name from the list: the endpoint never reads a path the caller made up.
      const listed = (await list()).some((entry) => entry.file === file);
      return listed ? path.resolve(projectDir, file) : undefined;
    },
  };
}
