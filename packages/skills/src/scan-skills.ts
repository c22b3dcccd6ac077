import { close, type Dirent, open, read, readdir, readFile, stat } from "node:fs";
import { join } from "node:path";
import { MAX_DISCOVERY_DEPTH, SKILL_FILE_NAME, SKIPPED_DIRS } from "./discover.js";
import type { SkillIssue } from "./issues.js";
import { parseSkillHead } from "./parse-skill.js";
import type { SkillSummary } from "./skill.js";

/**
 * Discovery and frontmatter reading in one pass, for the index (S18, X2). Instead of listing
 * every skill folder and then opening its `SKILL.md`, it opens `<dir>/SKILL.md` straight away
 * and lists the folder only when there is none (a grouping folder): one system call per skill
 * saved. Only the head of each file is read (the body stays on disk). Uses the callback fs API:
 * the promise `FileHandle` path costs about twice as much per file on 1,000 small files.
 */
export interface ScannedSkill {
  file: string;
  summary?: SkillSummary;
  warnings: SkillIssue[];
  errors: SkillIssue[];
}

/** Bytes read per file first; frontmatter is almost always far smaller. */
export const HEAD_BYTES = 8 * 1024;
/** Folders in flight at once: keeps libuv's pool busy without exhausting descriptors. */
const SCAN_CONCURRENCY = 32;

/**
 * Read buffers reused across files: one fresh 8 KiB buffer per file is 8 MB of short-lived
 * external memory for 1,000 skills, and the garbage collector then dominates the scan.
 */
class BufferPool {
  private readonly free: Buffer[] = [];
  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafe(HEAD_BYTES);
  }
  give(buffer: Buffer): void {
    this.free.push(buffer);
  }
}

export async function scanSkills(
  root: string,
  onIssue: (issue: SkillIssue) => void,
): Promise<ScannedSkill[]> {
  const out: ScannedSkill[] = [];
  const pool = new BufferPool();
  const queue: { dir: string; depth: number }[] = [{ dir: root, depth: 0 }];
  let active = 0;
  await new Promise<void>((resolve) => {
    const pump = (): void => {
      while (active < SCAN_CONCURRENCY && queue.length > 0) {
        const job = queue.pop();
        if (job === undefined) break;
        active++;
        void visit(job.dir, job.depth, out, queue, pool, onIssue).finally(() => {
          active--;
          pump();
        });
      }
      if (active === 0 && queue.length === 0) resolve();
    };
    pump();
  });
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

async function visit(
  dir: string,
  depth: number,
  out: ScannedSkill[],
  queue: { dir: string; depth: number }[],
  pool: BufferPool,
  onIssue: (issue: SkillIssue) => void,
): Promise<void> {
  const file = join(dir, SKILL_FILE_NAME);
  const head = await readSkillHead(file, pool);
  if (head !== undefined) {
    out.push(head);
    return;
  }
  const entries = await listDir(dir);
  const nearMiss = entries.find(
    (e) => e.name.toLowerCase() === "skill.md" && e.name !== SKILL_FILE_NAME,
  );
  if (nearMiss !== undefined) {
    onIssue({
      severity: "warning",
      code: "skill.skill_file_case",
      message: `"${nearMiss.name}" is not loaded: the file must be named exactly ${SKILL_FILE_NAME}`,
      file: join(dir, nearMiss.name),
    });
  }
  if (depth >= MAX_DISCOVERY_DEPTH) return;
  for (const entry of entries) {
    if (entry.name.startsWith(".") || SKIPPED_DIRS.has(entry.name)) continue;
    const sub = join(dir, entry.name);
    if (entry.isDirectory() || (entry.isSymbolicLink() && (await isDir(sub)))) {
      queue.push({ dir: sub, depth: depth + 1 });
    }
  }
}

/** `undefined` when there is no `SKILL.md` here; otherwise the parsed head or why it failed. */
async function readSkillHead(file: string, pool: BufferPool): Promise<ScannedSkill | undefined> {
  let fd: number;
  try {
    fd = await new Promise<number>((resolve, reject) =>
      open(file, "r", (err, handle) => (err ? reject(err) : resolve(handle))),
    );
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return undefined;
    return readFailed(file, cause);
  }
  try {
    const buffer = pool.take();
    let prefix: string;
    let bytesRead: number;
    try {
      bytesRead = await new Promise<number>((resolve, reject) =>
        read(fd, buffer, 0, HEAD_BYTES, 0, (err, n) => (err ? reject(err) : resolve(n))),
      );
      // Decode only up to the first closing-fence candidate: the body is not needed yet, and
      // decoding the rest of the read-ahead was a large share of the scan's CPU time.
      const fenceEnd = closingFenceEnd(buffer, bytesRead);
      prefix = buffer.toString("utf8", 0, fenceEnd === -1 ? bytesRead : fenceEnd);
    } finally {
      pool.give(buffer);
    }
    const complete = bytesRead < HEAD_BYTES;
    // A cut prefix is always parsed as a prefix, so an unclosed frontmatter reads the whole file.
    let head = parseSkillHead(prefix, !complete || prefix.length < bytesRead, { path: file });
    if (head.kind === "truncated") {
      // Frontmatter longer than the read-ahead: read the whole file once.
      const text = await new Promise<string>((resolve, reject) =>
        readFile(file, "utf8", (err, data) => (err ? reject(err) : resolve(data))),
      );
      head = parseSkillHead(text, false, { path: file });
    }
    if (head.kind === "truncated") return readFailed(file, new Error("frontmatter never ends"));
    return head.ok
      ? { file, summary: head.summary, warnings: head.warnings, errors: [] }
      : { file, warnings: head.warnings, errors: head.errors };
  } catch (cause) {
    // EISDIR on some platforms surfaces at read time for a folder named SKILL.md.
    if ((cause as NodeJS.ErrnoException).code === "EISDIR") return undefined;
    return readFailed(file, cause);
  } finally {
    close(fd, () => undefined);
  }
}

const NEWLINE = 0x0a;

/**
 * The end (after its newline) of the first line from line 2 on that starts with `---` or `...`,
 * or -1. A candidate that is not a real fence (`----`, `--- x`) only costs a full read later.
 */
function closingFenceEnd(buffer: Buffer, length: number): number {
  let at = buffer.indexOf(NEWLINE);
  while (at !== -1 && at < length) {
    const start = at + 1;
    const c = buffer[start];
    if ((c === 0x2d || c === 0x2e) && buffer[start + 1] === c && buffer[start + 2] === c) {
      const end = buffer.indexOf(NEWLINE, start);
      return end === -1 || end >= length ? -1 : end + 1;
    }
    at = buffer.indexOf(NEWLINE, start);
  }
  return -1;
}

function readFailed(file: string, cause: unknown): ScannedSkill {
  return {
    file,
    warnings: [],
    errors: [
      {
        severity: "error",
        code: "skill.read_failed",
        message: `cannot read the file: ${cause instanceof Error ? cause.message : String(cause)}`,
        file,
      },
    ],
  };
}

function listDir(dir: string): Promise<Dirent[]> {
  return new Promise((resolve) =>
    readdir(dir, { withFileTypes: true }, (err, entries) => resolve(err ? [] : entries)),
  );
}

function isDir(path: string): Promise<boolean> {
  return new Promise((resolve) => stat(path, (err, info) => resolve(!err && info.isDirectory())));
}
