// A user's workspace directory and the one way a model-supplied path becomes a real path in it.
// Paths are relative to the workspace root; absolute paths, NUL bytes, `..` that climbs out and
// symlinks that lead out are refused. The check resolves every symlink on the way (realpath of
// the deepest part that exists), so a link planted in the workspace cannot aim a read or a write
// outside it. The plugin sandbox (bubblewrap) is the second wall: these checks keep the server
// process itself, which serves the fs_* tools, inside the workspace.
import { lstat, mkdir, realpath } from "node:fs/promises";
import { createHash } from "node:crypto";
import path from "node:path";
import { PlatformToolError } from "../platform-tool.js";

/** Longest path a model may pass, in characters; far above any real workspace path. */
export const WORKSPACE_PATH_MAX_CHARS = 1024;

/**
 * The workspace directory of `userId` under `root`: a readable prefix of the id plus a hash of
 * all of it, so ids with `/`, `..` or odd characters never name another directory.
 */
export function workspaceDirName(userId: string): string {
  const readable = userId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 40);
  const hash = createHash("sha256").update(userId).digest("hex").slice(0, 12);
  return `${readable}-${hash}`;
}

/** Creates (0700) and returns the real path of the workspace of `userId` under `root`. */
export async function openWorkspace(root: string, userId: string): Promise<string> {
  const dir = path.join(root, workspaceDirName(userId));
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return realpath(dir);
}

export interface ResolvedPath {
  /** The absolute path to use; every existing part of it is inside the workspace. */
  absolute: string;
  /** The path as the model should see it: relative to the workspace, `/`-separated, `.` for root. */
  shown: string;
}

function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root + path.sep);
}

/** Relative path as shown to the model. */
export function shownPath(root: string, absolute: string): string {
  const relative = path.relative(root, absolute);
  return relative === "" ? "." : relative.split(path.sep).join("/");
}

/**
 * Resolves `raw` inside the workspace `root` (a real path). Refuses what is not a plain relative
 * path and anything whose resolved location, symlinks followed, is outside `root`. The target
 * itself need not exist (writes, mkdir); its deepest existing ancestor is what is checked.
 */
export async function resolveInWorkspace(root: string, raw: string): Promise<ResolvedPath> {
  if (raw.includes("\0")) {
    throw new PlatformToolError("PATH_INVALID", "the path contains a NUL byte; pass a plain path");
  }
  if (raw.length > WORKSPACE_PATH_MAX_CHARS) {
    throw new PlatformToolError(
      "PATH_INVALID",
      `the path is ${raw.length} characters; the limit is ${WORKSPACE_PATH_MAX_CHARS}`,
    );
  }
  if (path.isAbsolute(raw) || /^[A-Za-z]:[\\/]/.test(raw) || raw.startsWith("~")) {
    throw new PlatformToolError(
      "PATH_INVALID",
      `${JSON.stringify(raw)} is absolute; paths are relative to the workspace root (e.g. "notes/todo.md")`,
    );
  }
  const lexical = path.resolve(root, raw === "" ? "." : raw);
  if (!isInside(root, lexical)) {
    throw new PlatformToolError(
      "PATH_OUTSIDE_WORKSPACE",
      `${JSON.stringify(raw)} climbs out of the workspace; use a path below its root`,
    );
  }
  // Follow symlinks through the deepest part that exists; the rest is created under it.
  let existing = lexical;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await realpath(existing);
      existing = path.join(real, ...rest.reverse());
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
      if (existing === root) throw error;
      // The name exists but does not resolve: a dangling symlink, which a write would follow.
      if (
        await lstat(existing).then(
          () => true,
          () => false,
        )
      ) {
        throw new PlatformToolError(
          "PATH_OUTSIDE_WORKSPACE",
          `${JSON.stringify(raw)} goes through a symbolic link that points nowhere inside the workspace`,
        );
      }
      rest.push(path.basename(existing));
      existing = path.dirname(existing);
    }
  }
  if (!isInside(root, existing)) {
    throw new PlatformToolError(
      "PATH_OUTSIDE_WORKSPACE",
      `${JSON.stringify(raw)} leads out of the workspace through a symbolic link; links may only point inside it`,
    );
  }
  return { absolute: existing, shown: shownPath(root, lexical) };
}
