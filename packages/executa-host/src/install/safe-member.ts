// The zip-slip defence (R78 step 4, `_check_safe_member`) and the bounds every extractor shares.
// A member is refused, never rewritten: an archive that tries `..`, an absolute path, a link out
// of the staging folder or a write through a link is hostile or broken, and neither installs.
import { lstat } from "node:fs/promises";
import * as path from "node:path";
import { InstallError } from "./install-error.js";

export interface ExtractLimits {
  /** Sum of all members' sizes (zip bombs). */
  maxBytes: number;
  maxEntries: number;
}

const unsafe = (archive: string, member: string, why: string) =>
  new InstallError(
    "UNSAFE_ARCHIVE",
    `${archive}: member ${JSON.stringify(member)} ${why}; nothing was installed`,
  );

/**
 * The member's absolute destination under `root`, or undefined for the root itself (`./`).
 * Backslashes count as separators, so a Windows-made `..\\x` is caught too.
 */
export function safeMemberPath(root: string, archive: string, member: string): string | undefined {
  if (member.includes("\0")) throw unsafe(archive, member, "has a NUL byte in its name");
  const name = member.replace(/\\/g, "/");
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name) || path.isAbsolute(member))
    throw unsafe(archive, member, "is an absolute path");
  const parts = name.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.includes("..")) throw unsafe(archive, member, "climbs out with '..'");
  if (parts.length === 0) return undefined;
  const dest = path.join(root, ...parts);
  if (!dest.startsWith(root + path.sep)) throw unsafe(archive, member, "lands outside the archive");
  return dest;
}

/** A symlink's target must stay inside `root` (relative, no escape). */
export function checkLinkTarget(
  root: string,
  archive: string,
  member: string,
  dest: string,
  target: string,
): void {
  if (target === "" || target.includes("\0"))
    throw unsafe(archive, member, "is a link with no target");
  if (path.isAbsolute(target) || /^[A-Za-z]:|^[\\/]/.test(target))
    throw unsafe(archive, member, `is a link to the absolute path ${target}`);
  const resolved = path.resolve(path.dirname(dest), target.replace(/\\/g, "/"));
  if (resolved !== root && !resolved.startsWith(root + path.sep))
    throw unsafe(archive, member, `is a link to ${target}, outside the archive`);
}

/**
 * Refuses a member whose parent folders include a symlink (a link extracted earlier would
 * redirect the write), or that already exists (a second copy could replace a checked file).
 */
export async function checkFreshDestination(
  root: string,
  archive: string,
  member: string,
  dest: string,
  kind: "file" | "dir",
): Promise<void> {
  let dir = path.dirname(dest);
  while (dir.startsWith(root + path.sep)) {
    const st = await lstat(dir).catch(() => undefined);
    if (st?.isSymbolicLink()) throw unsafe(archive, member, "is written through a symlink");
    if (st !== undefined && !st.isDirectory()) throw unsafe(archive, member, "is under a file");
    dir = path.dirname(dir);
  }
  const existing = await lstat(dest).catch(() => undefined);
  if (existing === undefined) return;
  if (kind === "dir" && existing.isDirectory()) return;
  throw unsafe(archive, member, "appears twice in the archive");
}

/** Counts members and bytes against the limits as extraction goes. */
export class ExtractBudget {
  private entries = 0;
  private bytes = 0;

  constructor(
    private readonly limits: ExtractLimits,
    private readonly archive: string,
  ) {}

  entry(): void {
    if (++this.entries > this.limits.maxEntries)
      throw new InstallError(
        "TOO_LARGE",
        `${this.archive}: more than ${this.limits.maxEntries} members; over the install limit`,
      );
  }

  add(n: number): void {
    this.bytes += n;
    if (this.bytes > this.limits.maxBytes)
      throw new InstallError(
        "TOO_LARGE",
        `${this.archive}: unpacks to more than ${this.limits.maxBytes} bytes; over the install limit (a zip bomb?)`,
      );
  }
}

/** Keeps the rwx bits only: no setuid/setgid/sticky, no group/world write from an archive. */
export const fileMode = (mode: number | undefined): number =>
  mode === undefined ? 0o644 : (mode & 0o755) | 0o600;
