// `__file_transport` (L1073–L1087, T2, H3): a frame too large for a line travels through a file
// in the OS temp directory and the line carries only a pointer. Reading is guarded: only a regular
// file directly inside the temp directory, no symlinks or hard links, owned by this user, bounded
// size, holding a JSON object; only then is it deleted.
// Both directions are synchronous on purpose: frame order on the connection must be preserved,
// and these frames are rare (> 512 KiB).

import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";

/** H2: the SDK switches to file transport above 512 KiB. */
export const FILE_TRANSPORT_THRESHOLD_BYTES = 512 * 1024;
/** Largest file a pointer may reference; a frame bigger than this is refused unread. */
export const DEFAULT_MAX_FILE_TRANSPORT_BYTES = 256 * 1024 * 1024;
/** Prefix of files we write; readers accept any name. */
export const FILE_TRANSPORT_PREFIX = "executa-msg-";

export class FileTransportError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FileTransportError";
  }
}

function realDir(dir: string): string | undefined {
  try {
    return realpathSync(dir);
  } catch {
    return undefined;
  }
}

/**
 * The directories a pointer may point into: the configured temp directory and, on POSIX, /tmp
 * (the spec's own example path, L1080, which plugins hard-code even where TMPDIR differs).
 */
export function allowedFileTransportDirs(tempDir?: string): Set<string> {
  const dirs = new Set<string>();
  const primary = realDir(tempDir ?? tmpdir());
  if (primary !== undefined) dirs.add(primary);
  if (tempDir === undefined && process.platform !== "win32") {
    const posixTmp = realDir("/tmp");
    if (posixTmp !== undefined) dirs.add(posixTmp);
  }
  return dirs;
}

/**
 * Reads the frame a pointer names and deletes its file, returning the frame. The pointer comes
 * from the plugin, so the host unlinks nothing it did not read as a frame: the path must be a
 * regular file directly inside an allowed directory, not a symlink, with one link only (a hard
 * link to a file elsewhere would delete that name), owned by this process's user (the plugin
 * runs as it), no larger than `maxBytes`, and hold a JSON object. Throws FileTransportError
 * (naming the check that failed) and leaves the file in place otherwise.
 */
export function readFileTransport(
  path: unknown,
  allowedDirs: ReadonlySet<string>,
  maxBytes: number,
  /** The uid the other side runs as; default this process's (a sandbox may run it as another). */
  ownerUid: number | undefined = process.getuid?.(),
): Record<string, unknown> {
  if (typeof path !== "string" || !isAbsolute(path)) {
    throw new FileTransportError("__file_transport must be an absolute path");
  }
  let real: string;
  let link: Stats;
  try {
    link = lstatSync(path);
    if (link.isSymbolicLink()) throw new FileTransportError("refusing a symbolic link");
    if (!link.isFile()) throw new FileTransportError("not a regular file");
    real = realpathSync(path);
  } catch (error) {
    if (error instanceof FileTransportError) throw error;
    throw new FileTransportError(`cannot stat file: ${(error as Error).message}`, { cause: error });
  }
  if (!allowedDirs.has(dirname(real))) {
    throw new FileTransportError("file is not in the OS temp directory");
  }
  ownedSingleLink(link, ownerUid);
  let fd: number;
  try {
    // O_NOFOLLOW: a symlink swapped in since lstat is refused by the kernel, not followed.
    fd = openSync(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    throw new FileTransportError(`cannot open file: ${(error as Error).message}`, { cause: error });
  }
  let text: string;
  try {
    // Check the opened file, not the path: it may have been swapped since lstat.
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new FileTransportError("not a regular file");
    if (stat.ino !== link.ino || stat.dev !== link.dev) {
      throw new FileTransportError("the file changed between its check and its opening");
    }
    ownedSingleLink(stat, ownerUid);
    if (stat.size > maxBytes)
      throw new FileTransportError(`file is ${stat.size} bytes, over ${maxBytes}`);
    const buffer = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    text = buffer.toString("utf8", 0, read);
  } finally {
    closeSync(fd);
  }
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    throw new FileTransportError("file does not hold JSON");
  }
  if (frame === null || typeof frame !== "object" || Array.isArray(frame)) {
    throw new FileTransportError("file does not hold a JSON object");
  }
  try {
    unlinkSync(real);
  } catch {
    // Already gone or not ours to delete: the content was read, which is what matters.
  }
  return frame as Record<string, unknown>;
}

/** This process's user owns the file and it has no other name (POSIX; Windows has no uid). */
function ownedSingleLink(stat: Stats, uid: number | undefined): void {
  if (stat.nlink !== 1) {
    throw new FileTransportError(
      `file has ${stat.nlink} links; a frame file has exactly one (refusing a hard link)`,
    );
  }
  if (uid !== undefined && stat.uid !== uid) {
    throw new FileTransportError(
      `file is owned by uid ${stat.uid}, not by the uid the plugin runs as (${uid})`,
    );
  }
}

/** Writes a serialised frame to a fresh 0600 file and returns its path. */
export function writeFileTransport(text: string, tempDir?: string): string {
  const path = join(
    tempDir ?? tmpdir(),
    `${FILE_TRANSPORT_PREFIX}${randomBytes(12).toString("hex")}.json`,
  );
  writeFileSync(path, text, { mode: 0o600, flag: "wx" });
  return path;
}
