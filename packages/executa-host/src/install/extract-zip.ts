// zip members into the staging folder through the checks of safe-member.ts. yauzl reads the
// central directory (so the entry count and every declared size are known before a byte is
// inflated) and checks that each member inflates to exactly its declared size.
import { createWriteStream } from "node:fs";
import { mkdir, symlink } from "node:fs/promises";
import * as path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import yauzl from "yauzl";
import { InstallError } from "./install-error.js";
import {
  checkFreshDestination,
  checkLinkTarget,
  ExtractBudget,
  type ExtractLimits,
  fileMode,
  safeMemberPath,
} from "./safe-member.js";

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;
/** "Made by" host 3 is Unix: only then do the high external-attribute bits hold a mode. */
const UNIX_HOST = 3;
const MAX_LINK_TARGET_BYTES = 4096;
/** yauzl's own name checks; they are zip-slip attempts, not damage. */
const UNSAFE_NAME_RE = /absolute path|invalid relative path|invalid characters in fileName/;

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: true, validateEntrySizes: true, strictFileNames: false },
      (err, zip) => (err ? reject(err) : resolve(zip)),
    );
  });
}

function readStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream)));
  });
}

function asInstallError(err: unknown, label: string): InstallError {
  if (err instanceof InstallError) return err;
  const detail = err instanceof Error ? err.message : String(err);
  if (UNSAFE_NAME_RE.test(detail))
    return new InstallError("UNSAFE_ARCHIVE", `${label}: ${detail}; nothing was installed`, {
      cause: err,
    });
  return new InstallError(
    "CORRUPT_ARCHIVE",
    `${label}: not a readable zip (${detail}); rebuild it with \`zip -r\``,
    { cause: err },
  );
}

export async function extractZip(
  archive: string,
  root: string,
  limits: ExtractLimits,
  label: string,
): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(archive);
  } catch (err) {
    throw asInstallError(err, label);
  }
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new InstallError(
        "TOO_LARGE",
        `${label}: ${zip.entryCount} members is over the install limit of ${limits.maxEntries}`,
      );
    }
    const budget = new ExtractBudget(limits, label);
    await new Promise<void>((resolve, reject) => {
      zip.on("error", (err) => reject(asInstallError(err, label)));
      zip.on("end", () => resolve());
      zip.on("entry", (entry: yauzl.Entry) => {
        writeEntry(zip, entry, root, budget, label).then(
          () => zip.readEntry(),
          (err: unknown) => reject(asInstallError(err, label)),
        );
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

async function writeEntry(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  root: string,
  budget: ExtractBudget,
  label: string,
): Promise<void> {
  budget.entry();
  const name = entry.fileName;
  const dest = safeMemberPath(root, label, name);
  if (dest === undefined) return;
  const unixMode =
    entry.versionMadeBy >> 8 === UNIX_HOST ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
  const type = unixMode & S_IFMT;
  if (name.endsWith("/") || type === S_IFDIR) {
    await checkFreshDestination(root, label, name, dest, "dir");
    await mkdir(dest, { recursive: true, mode: 0o755 });
    return;
  }
  if (type !== 0 && type !== S_IFREG && type !== S_IFLNK) {
    throw new InstallError(
      "UNSAFE_ARCHIVE",
      `${label}: member ${JSON.stringify(name)} is a device, FIFO or socket (mode ${type.toString(8)}); an executa archive holds files, folders and links only`,
    );
  }
  if (entry.isEncrypted()) {
    throw new InstallError(
      "CORRUPT_ARCHIVE",
      `${label}: member ${JSON.stringify(name)} is encrypted; publish an unencrypted zip`,
    );
  }
  if (type === S_IFLNK) {
    if (entry.uncompressedSize > MAX_LINK_TARGET_BYTES)
      throw new InstallError(
        "UNSAFE_ARCHIVE",
        `${label}: link ${JSON.stringify(name)} is too long`,
      );
    const chunks: Buffer[] = [];
    for await (const chunk of await readStream(zip, entry)) chunks.push(chunk as Buffer);
    const target = Buffer.concat(chunks).toString("utf8");
    checkLinkTarget(root, label, name, dest, target);
    await checkFreshDestination(root, label, name, dest, "file");
    await mkdir(path.dirname(dest), { recursive: true, mode: 0o755 });
    await symlink(target, dest);
    return;
  }
  budget.add(entry.uncompressedSize);
  await checkFreshDestination(root, label, name, dest, "file");
  await mkdir(path.dirname(dest), { recursive: true, mode: 0o755 });
  const mode = fileMode(type === 0 ? undefined : unixMode & 0o7777);
  await pipeline(await readStream(zip, entry), createWriteStream(dest, { flags: "wx", mode }));
}
