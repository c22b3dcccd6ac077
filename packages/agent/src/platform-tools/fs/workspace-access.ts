// Where fs_* find a user's workspace, and who owns what they create. Alone, fs_* keep their own
// folders under `workspaceRoot`. Beside the exec_* tools they must use the sandbox's workspace
// (`workspaces/<user>` under its root, what commands see at /workspace), and when the server runs
// as root and the sandbox as nobody, what fs_* create must belong to nobody, or a command in the
// sandbox could read a file fs_write_file made but never change it.
import { lchown, lstat, readdir, realpath } from "node:fs/promises";
import path from "node:path";
import { openWorkspace } from "./workspace.js";

export interface SharedWorkspaces {
  /** The user's workspace folder, created on first use. */
  dirOf(userId: string): string;
  /** Who must own what fs_* create; undefined when the sandbox runs as the server's uid. */
  owner: { uid: number; gid: number } | undefined;
}

export interface WorkspaceAccess {
  /** The directory holding every user's workspace (one subdirectory per user). */
  workspaceRoot: string;
  /** The sandbox's workspaces, when exec_* share them (see the file comment). */
  shared?: SharedWorkspaces | undefined;
}

/** The real path of the user's workspace, created on first use. */
export async function openUserWorkspace(access: WorkspaceAccess, userId: string): Promise<string> {
  return access.shared === undefined
    ? openWorkspace(access.workspaceRoot, userId)
    : realpath(access.shared.dirOf(userId));
}

/** Entries a tree hand-over walks at most (a copy is bounded far below this already). */
const HAND_OVER_MAX_ENTRIES = 100_000;

/**
 * Gives what fs_* just created at `absolute` (and the parents made for it, up to the workspace
 * root) to the sandbox's owner; with `tree`, everything below it too (a copied directory).
 */
export async function handOver(
  access: WorkspaceAccess,
  root: string,
  absolute: string,
  options: { tree?: boolean } = {},
): Promise<void> {
  const owner = access.shared?.owner;
  if (owner === undefined) return;
  const { uid, gid } = owner;
  if (options.tree) {
    let left = HAND_OVER_MAX_ENTRIES;
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (--left < 0) return;
        const p = path.join(dir, entry.name);
        await lchown(p, uid, gid);
        if (entry.isDirectory()) await walk(p);
      }
    };
    if ((await lstat(absolute)).isDirectory()) await walk(absolute);
  }
  for (let at = absolute; at !== root && at.startsWith(root + path.sep); at = path.dirname(at)) {
    await lchown(at, uid, gid);
  }
}
