// The private folders under the sandbox root: `plugins/<user>/<tool>/{home,tmp}` per plugin
// process (H11), `workspaces/<user>` shared by that user's exec_* calls, `exec/<user>/{home,tmp}`.
// Names become path segments through `segment`, which cannot make two ids collide.

import { createHash } from "node:crypto";
import { chmodSync, chownSync, mkdirSync, statSync } from "node:fs";
import * as path from "node:path";
import { isRoot } from "./bwrap-probe.js";

/** `[A-Za-z0-9._-]` (at most 40), then a hash of the raw id: `a/b` and `a_b` stay apart. */
export function segment(id: string): string {
  const readable = id
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .replace(/^\.+/, "_")
    .slice(0, 40);
  const hash = createHash("sha256").update(id).digest("hex").slice(0, 12);
  return `${readable}-${hash}`;
}

export interface PrivateDirs {
  home: string;
  tmp: string;
}

export function checkRoot(root: string): string {
  if (!path.isAbsolute(root)) {
    throw new Error(
      `the sandbox root "${root}" must be an absolute path (e.g. /var/lib/anna/sandbox)`,
    );
  }
  return path.resolve(root);
}

/**
 * Creates a folder owned by the sandbox's uid, mode 0700. The root and the per-user folders are
 * 0711: the sandbox's uid must traverse them to reach its own folder, but cannot list them.
 */
function ensureDir(
  dir: string,
  owner: { uid: number; gid: number } | undefined,
  mode: number,
): string {
  mkdirSync(dir, { recursive: true, mode });
  chmodSync(dir, mode);
  if (owner !== undefined && isRoot()) chownSync(dir, owner.uid, owner.gid);
  return dir;
}

function ensureParents(root: string, parts: readonly string[]): string {
  let dir = ensureDir(root, undefined, 0o711);
  for (const part of parts) dir = ensureDir(path.join(dir, part), undefined, 0o711);
  return dir;
}

export function pluginDirs(
  root: string,
  userId: string,
  toolId: string,
  owner: { uid: number; gid: number } | undefined,
): PrivateDirs {
  const base = ensureParents(root, ["plugins", segment(userId), segment(toolId)]);
  return {
    home: ensureDir(path.join(base, "home"), owner, 0o700),
    tmp: ensureDir(path.join(base, "tmp"), owner, 0o700),
  };
}

export function execDirs(
  root: string,
  userId: string,
  owner: { uid: number; gid: number } | undefined,
): PrivateDirs & { workspace: string } {
  const base = ensureParents(root, ["exec", segment(userId)]);
  const workspaces = ensureParents(root, ["workspaces"]);
  return {
    home: ensureDir(path.join(base, "home"), owner, 0o700),
    tmp: ensureDir(path.join(base, "tmp"), owner, 0o700),
    workspace: userWorkspace(root, userId, owner, workspaces),
  };
}

/** The user's workspace on the server (`workspaces/<user>`), created on first use. */
export function userWorkspace(
  root: string,
  userId: string,
  owner: { uid: number; gid: number } | undefined,
  parent: string = ensureParents(root, ["workspaces"]),
): string {
  return ensureDir(path.join(parent, segment(userId)), owner, 0o700);
}

/**
 * Why `owner` cannot reach `dir`, or undefined when it can: bwrap runs as the sandbox's uid, so
 * every parent must let that uid through (x) and the folder itself must be readable (r and x).
 * A folder under a 0700 parent (a `mktemp -d` checkout, root's home) is the usual culprit; bwrap
 * itself would only say "Can't find source path".
 */
export function unreachableBy(
  dir: string,
  owner: { uid: number; gid: number } | undefined,
): string | undefined {
  if (owner === undefined) return undefined; // the sandbox runs as the server's own uid
  const resolved = path.resolve(dir);
  const chain: string[] = [];
  for (let at = resolved; ; at = path.dirname(at)) {
    chain.unshift(at);
    if (path.dirname(at) === at) break;
  }
  for (const at of chain) {
    let st;
    try {
      st = statSync(at);
    } catch {
      return `${at} does not exist`;
    }
    const shift = st.uid === owner.uid ? 6 : st.gid === owner.gid ? 3 : 0;
    const bits = (st.mode >> shift) & 0o7;
    const needed = at === resolved ? 0o5 : 0o1;
    if ((bits & needed) !== needed) {
      const mode = (st.mode & 0o777).toString(8).padStart(4, "0");
      const fix = at === resolved ? "chmod o+rx" : "chmod o+x";
      return `${at} (mode ${mode}) does not let uid ${owner.uid} ${at === resolved ? "read it" : "through"}; ${fix} it, or keep plugins and the sandbox root under traversable folders`;
    }
  }
  return undefined;
}
